/**
 * Incremental JSON parser for tool-call arguments that arrive as many small deltas.
 *
 * The parser is a character-level state machine with an explicit stack of open containers, so a
 * delta costs time proportional to its own length: nothing already consumed is scanned or joined
 * again. The partial value is built in place, so a consumer can render arguments while they stream
 * and still get, from {@link StreamingJsonParser.finish}, exactly what `JSON.parse` would return.
 */

/**
 * A syntax error found by {@link StreamingJsonParser}.
 *
 * The message names the problem and its position, e.g. `Unexpected "}" at offset 17 in JSON: expected
 * a value`. `offset` counts UTF-16 code units from the start of all input (the same unit as
 * `JSON.parse` positions and `String.prototype.length`).
 */
export class StreamingJsonError extends Error {
	/** UTF-16 code-unit offset into the whole input where the problem was found. */
	readonly offset: number;

	constructor(message: string, offset: number) {
		super(message);
		this.name = "StreamingJsonError";
		this.offset = offset;
	}
}

// Grammar states. Plain numbers instead of an enum keep the hot switch monomorphic and cheap.
const EXPECT_VALUE = 0; // top level start, after ":" and after "," in an array
const ARRAY_START = 1; // after "[": a value or "]"
const OBJECT_START = 2; // after "{": a key or "}"
const EXPECT_KEY = 3; // after "," in an object
const EXPECT_COLON = 4;
const AFTER_VALUE = 5; // inside a container: "," or its closing bracket
const END = 6; // the top-level value is complete: only whitespace may follow
const STRING = 7;
const STRING_ESCAPE = 8; // after a backslash
const STRING_UNICODE = 9; // inside \uXXXX
const NUMBER = 10;
const LITERAL = 11; // true, false, null
const FAILED = 12;

// Number sub-states, following the JSON number grammar -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?
const NUM_MINUS = 0;
const NUM_ZERO = 1;
const NUM_INT = 2;
const NUM_DOT = 3;
const NUM_FRACTION = 4;
const NUM_EXP = 5;
const NUM_EXP_SIGN = 6;
const NUM_EXP_DIGITS = 7;

/** A number can end in these sub-states; in the others a digit is still required. */
function numberComplete(numberState: number): boolean {
	return numberState === NUM_ZERO || numberState === NUM_INT || numberState === NUM_FRACTION || numberState === NUM_EXP_DIGITS;
}

/** The number sub-state after `code`, or -1 when `code` cannot continue the number. */
function nextNumberState(numberState: number, code: number): number {
	if (code >= 0x30 && code <= 0x39) {
		if (numberState === NUM_MINUS) return code === 0x30 ? NUM_ZERO : NUM_INT;
		if (numberState === NUM_DOT) return NUM_FRACTION;
		if (numberState === NUM_EXP || numberState === NUM_EXP_SIGN) return NUM_EXP_DIGITS;
		return numberState === NUM_ZERO ? -1 : numberState;
	}
	if (code === 0x2e) return numberState === NUM_ZERO || numberState === NUM_INT ? NUM_DOT : -1;
	if (code === 0x65 || code === 0x45) {
		return numberState === NUM_ZERO || numberState === NUM_INT || numberState === NUM_FRACTION ? NUM_EXP : -1;
	}
	if (code === 0x2b || code === 0x2d) return numberState === NUM_EXP ? NUM_EXP_SIGN : -1;
	return -1;
}

/** Decoded single-character escapes, indexed by the char code after the backslash. */
const SIMPLE_ESCAPES: (string | undefined)[] = [];
SIMPLE_ESCAPES[0x22] = '"';
SIMPLE_ESCAPES[0x5c] = "\\";
SIMPLE_ESCAPES[0x2f] = "/";
SIMPLE_ESCAPES[0x62] = "\b";
SIMPLE_ESCAPES[0x66] = "\f";
SIMPLE_ESCAPES[0x6e] = "\n";
SIMPLE_ESCAPES[0x72] = "\r";
SIMPLE_ESCAPES[0x74] = "\t";

function hexValue(code: number): number {
	if (code >= 0x30 && code <= 0x39) return code - 0x30;
	const lower = code | 0x20;
	if (lower >= 0x61 && lower <= 0x66) return lower - 0x61 + 10;
	return -1;
}

type JsonContainer = Record<string, unknown> | unknown[];

/** One open object or array. `key` is the member name waiting for its value (objects only). */
interface Frame {
	readonly container: JsonContainer;
	readonly isArray: boolean;
	key: string;
}

const objectPrototype = Object.prototype;

/**
 * The default nesting bound of {@link StreamingJsonParser}: far deeper than any real tool call
 * (a few levels), far shallower than what breaks the recursive code that meets the value later
 * (`JSON.stringify` overflows the stack at about 5,000 levels; validators and provider request
 * builders recurse too).
 */
export const DEFAULT_MAX_JSON_DEPTH = 256;

/** Options of {@link StreamingJsonParser}. */
export interface StreamingJsonParserOptions {
	/** Deepest nesting of objects and arrays accepted; deeper input is an error. Default {@link DEFAULT_MAX_JSON_DEPTH}. */
	maxDepth?: number;
}

/**
 * Adds a member the way JSON.parse does (CreateDataProperty). Plain assignment would run the
 * `__proto__` setter and swap the object's prototype, and it fails for names that are read-only on a
 * frozen Object.prototype; any name Object.prototype knows therefore goes through defineProperty.
 */
function setMember(target: Record<string, unknown>, key: string, value: unknown): void {
	if (key in objectPrototype) defineMember(target, key, value);
	else target[key] = value;
}

function defineMember(target: object, key: string, value: unknown): void {
	Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * Quotes the offending code unit for a message. One code unit, not a code point: the other half of
 * a surrogate pair may be in the next chunk, and the message must not depend on how input was cut.
 */
function describeCharacter(text: string, index: number): string {
	return JSON.stringify(text.charAt(index));
}

/**
 * Incremental JSON parser.
 *
 * Feed chunks with {@link push}; read the live partial value with {@link value}; end with
 * {@link finish}, which returns exactly what `JSON.parse` returns for the joined chunks or throws a
 * {@link StreamingJsonError}. `push` never throws on malformed input: the first error is kept and
 * reported by `finish`, so a broken stream can still be drained. Nesting deeper than `maxDepth`
 * (default {@link DEFAULT_MAX_JSON_DEPTH}) is such an error, where `JSON.parse` would accept it:
 * a value that deep breaks the recursive code that meets it later (`JSON.stringify`, validators).
 *
 * @example
 * ```ts
 * const parser = new StreamingJsonParser();
 * parser.push('{"path": "src/ma');
 * parser.value; // { path: "src/ma" }
 * parser.push('in.ts", "line": 4');
 * parser.value; // { path: "src/main.ts" } (4 may still grow into 42)
 * parser.push("2}");
 * parser.finish(); // { path: "src/main.ts", line: 42 }
 * ```
 */
export class StreamingJsonParser {
	/** The nesting bound this parser enforces. */
	readonly maxDepth: number;
	private state = EXPECT_VALUE;
	private readonly stack: Frame[] = [];
	private root: unknown = undefined;
	/** Code units consumed before the current chunk. */
	private consumed = 0;
	private error: StreamingJsonError | undefined = undefined;
	private finished = false;
	private trailing: number | undefined = undefined;

	// The string being read: a key, or a value whose slot is written live at the end of each push.
	private text = "";
	private textIsKey = false;
	private textTarget: JsonContainer | undefined = undefined;
	private textSlot: string | number = 0;
	/** The open string's slot is a name Object.prototype knows, so it needs defineProperty. */
	private textSlotShadowsPrototype = false;
	private unicodeDigits = 0;
	private unicodeCode = 0;

	// The number being read: text carried over from earlier chunks plus its grammar sub-state.
	private numberText = "";
	private numberState = NUM_MINUS;

	// The literal being read.
	private literalWord = "";
	private literalMatched = 0;
	private literalValue: unknown = undefined;

	constructor(options: StreamingJsonParserOptions = {}) {
		this.maxDepth = options.maxDepth ?? DEFAULT_MAX_JSON_DEPTH;
	}

	/**
	 * Feeds the next chunk. Cost is O(chunk length), independent of what came before.
	 *
	 * Malformed input does not throw here; the first problem is remembered, later chunks are ignored,
	 * and {@link finish} throws it.
	 *
	 * @throws Error if called after {@link finish}.
	 */
	push(chunk: string): void {
		if (this.finished) throw new Error("StreamingJsonParser.push() called after finish()");
		if (this.state === FAILED) return;
		const length = chunk.length;
		let state = this.state;
		let index = 0;
		let numberStart = 0;
		let text = this.text;
		while (index < length) {
			switch (state) {
				case STRING: {
					// Batch the run of plain characters: one slice per run, not one append per character.
					let end = index;
					let code = 0;
					while (end < length) {
						code = chunk.charCodeAt(end);
						if (code === 0x22 || code === 0x5c || code < 0x20) break;
						end++;
					}
					if (end > index) text += chunk.slice(index, end);
					index = end;
					if (end === length) break;
					if (code === 0x22) {
						index++;
						state = this.endString(text);
						text = "";
					} else if (code === 0x5c) {
						index++;
						state = STRING_ESCAPE;
					} else {
						state = this.failInString(chunk, index, "control characters must be escaped inside strings", text);
					}
					break;
				}
				case STRING_ESCAPE: {
					const code = chunk.charCodeAt(index);
					const decoded = SIMPLE_ESCAPES[code];
					if (decoded !== undefined) {
						text += decoded;
						state = STRING;
					} else if (code === 0x75) {
						this.unicodeDigits = 0;
						this.unicodeCode = 0;
						state = STRING_UNICODE;
					} else {
						state = this.failInString(chunk, index, "invalid escape sequence in string", text);
						break;
					}
					index++;
					break;
				}
				case STRING_UNICODE: {
					const digit = hexValue(chunk.charCodeAt(index));
					if (digit < 0) {
						state = this.failInString(chunk, index, "expected a hex digit in \\u escape", text);
						break;
					}
					index++;
					this.unicodeCode = this.unicodeCode * 16 + digit;
					// Each \uXXXX is one UTF-16 code unit; a surrogate pair written as two escapes (even split
					// across chunks) joins up on its own once both halves are appended, as in JSON.parse.
					if (++this.unicodeDigits === 4) {
						text += String.fromCharCode(this.unicodeCode);
						state = STRING;
					}
					break;
				}
				case NUMBER: {
					let numberState = this.numberState;
					let next = 0;
					while (index < length && (next = nextNumberState(numberState, chunk.charCodeAt(index))) >= 0) {
						numberState = next;
						index++;
					}
					if (index === length) {
						this.numberState = numberState;
						break;
					}
					// The character is not part of the number, so the number ends here if it is complete; the
					// character is then read again in the state after the value ("1.2.3" and "1-2" fail there).
					const code = chunk.charCodeAt(index);
					if (!numberComplete(numberState)) {
						state = this.fail(chunk, index, "expected a digit");
					} else if (numberState === NUM_ZERO && code >= 0x30 && code <= 0x39) {
						state = this.fail(chunk, index, "leading zeros are not allowed");
					} else {
						const numberText = this.numberText + chunk.slice(numberStart, index);
						this.numberText = "";
						state = this.addValue(Number(numberText));
					}
					break;
				}
				case LITERAL: {
					const word = this.literalWord;
					let matched = this.literalMatched;
					while (index < length && matched < word.length) {
						if (chunk.charCodeAt(index) !== word.charCodeAt(matched)) break;
						index++;
						matched++;
					}
					if (matched === word.length) {
						state = this.addValue(this.literalValue);
					} else if (index < length) {
						state = this.fail(chunk, index, `expected "${word}"`);
					} else {
						this.literalMatched = matched;
					}
					break;
				}
				case FAILED:
					index = length;
					break;
				default: {
					// Structural states: skip whitespace, then read a one-character token.
					const code = chunk.charCodeAt(index);
					if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) {
						index++;
						break;
					}
					state = this.readToken(chunk, index, state);
					if (state === FAILED) break;
					if (state === NUMBER) numberStart = index;
					index++;
				}
			}
		}
		if (state === NUMBER) this.numberText += chunk.slice(numberStart);
		if (state === STRING || state === STRING_ESCAPE || state === STRING_UNICODE) {
			this.text = text;
			if (!this.textIsKey) this.writeText(text);
		}
		if (this.state !== FAILED) this.state = state;
		this.consumed += length;
	}

	/**
	 * Fails inside a string. The characters of this chunk read before the problem are still written
	 * to the partial value, as they would have been had the chunk ended just before it: what the
	 * value shows must not depend on where the input was cut.
	 */
	private failInString(chunk: string, index: number, message: string, text: string): number {
		if (!this.textIsKey) this.writeText(text);
		return this.fail(chunk, index, message);
	}

	/**
	 * Where input other than whitespace began after a complete top-level value (offset of the `{`
	 * of a second object in `{…}{…}`), else `undefined`. Such input is an error for `finish`; a
	 * reader of concatenated values (`StructuredOutputReader`) starts a new parser there instead.
	 */
	get trailingOffset(): number | undefined {
		return this.trailing;
	}

	/**
	 * Best-effort partial value of everything pushed so far (undefined before any value starts).
	 *
	 * This is a LIVE value updated in place: objects and arrays are the same instances across pushes
	 * (and in the result of {@link finish}), growing as data arrives. Reading it is O(1). Incomplete
	 * strings show their prefix so far. Numbers appear once their end is known (the next delimiter,
	 * or {@link finish}) since more digits may follow; literals appear once spelled out. An object key
	 * whose value has not started is not set. Apart from the one string still open, every leaf shown
	 * is final.
	 */
	get value(): unknown {
		return this.root;
	}

	/**
	 * Ends input. Returns exactly what `JSON.parse` of all chunks joined returns (deep-equal, same key
	 * order), or throws a {@link StreamingJsonError} naming the offset and the problem, e.g.
	 * `Unexpected "}" at offset 17 in JSON: expected a value`. Empty or whitespace-only input throws.
	 * Calling it again returns the same value (or throws the same error).
	 */
	finish(): unknown {
		if (!this.finished) {
			this.finished = true;
			if (this.state === NUMBER) {
				if (numberComplete(this.numberState)) {
					this.state = this.addValue(Number(this.numberText));
					this.numberText = "";
				} else {
					this.failAtEnd("incomplete number");
				}
			}
			switch (this.state) {
				case END:
				case FAILED:
					break;
				case STRING:
				case STRING_ESCAPE:
				case STRING_UNICODE:
					this.failAtEnd("unterminated string");
					break;
				case LITERAL:
					this.failAtEnd(`expected "${this.literalWord}"`);
					break;
				default:
					this.failAtEnd(this.expectation(this.state));
			}
		}
		if (this.error !== undefined) throw this.error;
		return this.root;
	}

	/** Places a value in the open container (or as the root) and returns the state after it. */
	private addValue(value: unknown): number {
		const frame = this.stack[this.stack.length - 1];
		if (frame === undefined) {
			this.root = value;
			return END;
		}
		if (frame.isArray) (frame.container as unknown[]).push(value);
		else setMember(frame.container as Record<string, unknown>, frame.key, value);
		return AFTER_VALUE;
	}

	private startValueString(): void {
		this.textIsKey = false;
		const frame = this.stack[this.stack.length - 1];
		if (frame === undefined) {
			this.textTarget = undefined;
		} else {
			this.textTarget = frame.container;
			this.textSlot = frame.isArray ? (frame.container as unknown[]).length : frame.key;
			this.textSlotShadowsPrototype = !frame.isArray && frame.key in objectPrototype;
		}
		// The slot exists as soon as the string opens, so a started value is visible at once.
		this.writeText("");
	}

	private writeText(text: string): void {
		const target = this.textTarget;
		if (target === undefined) this.root = text;
		else if (this.textSlotShadowsPrototype) defineMember(target, this.textSlot as string, text);
		else (target as Record<string | number, unknown>)[this.textSlot] = text;
	}

	private endString(text: string): number {
		this.text = "";
		if (this.textIsKey) {
			(this.stack[this.stack.length - 1] as Frame).key = text;
			return EXPECT_COLON;
		}
		// A string read over many deltas is a V8 rope with one node per delta, each holding a slice of
		// its delta: about four times the memory of the text, and GC time that grew faster than the
		// input in the 10 MB benchmark. An indexed read makes V8 flatten it in place, once, in O(length).
		text.charCodeAt(0);
		this.writeText(text);
		this.textTarget = undefined;
		return this.stack.length === 0 ? END : AFTER_VALUE;
	}

	private closeContainer(): number {
		this.stack.pop();
		return this.stack.length === 0 ? END : AFTER_VALUE;
	}

	/**
	 * Reads the token starting at `chunk[index]` in a structural state and returns the next state.
	 * Consumes exactly that one character; a number or literal continues in its own state.
	 */
	private readToken(chunk: string, index: number, state: number): number {
		const code = chunk.charCodeAt(index);
		switch (state) {
			case EXPECT_VALUE:
			case ARRAY_START:
				if (code === 0x22) {
					this.startValueString();
					return STRING;
				}
				if (code === 0x7b || code === 0x5b) {
					if (this.stack.length >= this.maxDepth) return this.fail(chunk, index, `nesting deeper than ${this.maxDepth} levels (maxDepth)`);
					const isArray = code === 0x5b;
					const container: JsonContainer = isArray ? [] : {};
					this.addValue(container);
					this.stack.push({ container, isArray, key: "" });
					return isArray ? ARRAY_START : OBJECT_START;
				}
				if (code === 0x2d || (code >= 0x30 && code <= 0x39)) {
					this.numberText = "";
					this.numberState = code === 0x2d ? NUM_MINUS : code === 0x30 ? NUM_ZERO : NUM_INT;
					return NUMBER;
				}
				if (code === 0x74 || code === 0x66 || code === 0x6e) {
					this.literalWord = code === 0x74 ? "true" : code === 0x66 ? "false" : "null";
					this.literalValue = code === 0x74 ? true : code === 0x66 ? false : null;
					this.literalMatched = 1;
					return LITERAL;
				}
				if (code === 0x5d && state === ARRAY_START) return this.closeContainer();
				break;
			case OBJECT_START:
			case EXPECT_KEY:
				if (code === 0x22) {
					this.textIsKey = true;
					return STRING;
				}
				if (code === 0x7d && state === OBJECT_START) return this.closeContainer();
				break;
			case EXPECT_COLON:
				if (code === 0x3a) return EXPECT_VALUE;
				break;
			case AFTER_VALUE: {
				const frame = this.stack[this.stack.length - 1] as Frame;
				if (code === 0x2c) return frame.isArray ? EXPECT_VALUE : EXPECT_KEY;
				if (code === (frame.isArray ? 0x5d : 0x7d)) return this.closeContainer();
				break;
			}
		}
		if (state === END) this.trailing = this.consumed + index;
		return this.fail(chunk, index, this.expectation(state));
	}

	/** What a structural state is waiting for, for error messages. */
	private expectation(state: number): string {
		switch (state) {
			case ARRAY_START:
				return 'expected a value or "]"';
			case OBJECT_START:
				return 'expected a string key or "}"';
			case EXPECT_KEY:
				return "expected a string key";
			case EXPECT_COLON:
				return 'expected ":" after the key';
			case AFTER_VALUE:
				return (this.stack[this.stack.length - 1] as Frame).isArray ? 'expected "," or "]"' : 'expected "," or "}"';
			case END:
				return "expected the end of input after the JSON value";
			default:
				return "expected a value";
		}
	}

	private fail(chunk: string, index: number, problem: string): number {
		const offset = this.consumed + index;
		this.error = new StreamingJsonError(`Unexpected ${describeCharacter(chunk, index)} at offset ${offset} in JSON: ${problem}`, offset);
		this.state = FAILED;
		return FAILED;
	}

	private failAtEnd(problem: string): void {
		this.error = new StreamingJsonError(`Unexpected end of JSON input at offset ${this.consumed}: ${problem}`, this.consumed);
		this.state = FAILED;
	}
}

/**
 * Parses a complete string with {@link StreamingJsonParser}, pushing it in pieces of `chunkSize`
 * code units (default: all at once), with the parser's `options`. Returns what `JSON.parse(text)`
 * returns or throws a {@link StreamingJsonError}. Meant for tests and benchmarks; use `JSON.parse` for whole strings.
 *
 * @example
 * ```ts
 * parseStreamingJson('{"a":[1,2]}', 3); // { a: [1, 2] }
 * ```
 * @throws RangeError if `chunkSize` is not a positive integer.
 */
export function parseStreamingJson(text: string, chunkSize?: number, options?: StreamingJsonParserOptions): unknown {
	const parser = new StreamingJsonParser(options);
	if (chunkSize === undefined) {
		parser.push(text);
	} else {
		if (!Number.isInteger(chunkSize) || chunkSize < 1) throw new RangeError(`chunkSize must be a positive integer, got ${chunkSize}`);
		for (let start = 0; start < text.length; start += chunkSize) parser.push(text.slice(start, start + chunkSize));
	}
	return parser.finish();
}
