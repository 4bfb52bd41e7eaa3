/**
 * Properties of the streaming JSON parser that its own tests leave out: on ANY input (garbage,
 * cut JSON, lone surrogates), `push` never throws and `value` is always readable; the partial value
 * only grows as input arrives (strings extend, containers gain members, finished leaves never
 * change) and freezes at the first error; and it does not depend on how the input was cut.
 */
import fc from "fast-check";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { StreamingJsonError, StreamingJsonParser } from "../../src/utils/streaming-json.js";

const tokens = fc.constantFrom(..."{}[]\":,.-+eE0123456789 \t\n\\/u".split(""), "true", "false", "null", '"a"', '"__proto__"', "\ud83d", "\ude00", "é");
/** Valid JSON cut anywhere, valid JSON with a few edits, or token soup. */
const anyText = fc.oneof(
	fc.jsonValue({ maxDepth: 4 }).chain((value) => {
		const text = JSON.stringify(value);
		return fc.nat({ max: text.length }).map((end) => text.slice(0, end));
	}),
	fc.tuple(fc.json({ maxDepth: 3 }), fc.array(fc.tuple(fc.nat(), tokens), { minLength: 1, maxLength: 3 })).map(([text, edits]) =>
		edits.reduce((out, [position, token]) => {
			const at = position % (out.length + 1);
			return out.slice(0, at) + token + out.slice(at);
		}, text),
	),
	fc.array(tokens, { maxLength: 24 }).map((parts) => parts.join("")),
	fc.string({ unit: "binary", maxLength: 30 }),
);
const cuts = fc.array(fc.nat(), { maxLength: 10 });

/** `text` cut at `cutPoints` (modulo its length), in order. */
function pieces(text: string, cutPoints: number[]): string[] {
	const points = [...new Set(cutPoints.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
	const out: string[] = [];
	let start = 0;
	for (const point of [...points, text.length]) {
		out.push(text.slice(start, point));
		start = point;
	}
	return out;
}

/** A deep copy of a partial value, with own `__proto__` members kept as data (structuredClone drops nothing here). */
function snapshot(value: unknown): unknown {
	return value === undefined ? undefined : structuredClone(value);
}

/**
 * `later` extends `earlier`: a string is a prefix, an array or object only gained members (the
 * last one may still be growing), any other leaf is unchanged. `undefined` (nothing yet) precedes anything.
 */
function expectExtends(earlier: unknown, later: unknown, path = "$"): void {
	if (earlier === undefined) return;
	if (typeof earlier === "string") {
		expect(typeof later, path).toBe("string");
		expect((later as string).startsWith(earlier), `${path}: ${JSON.stringify(earlier)} → ${JSON.stringify(later)}`).toBe(true);
	} else if (Array.isArray(earlier)) {
		expect(Array.isArray(later), path).toBe(true);
		const next = later as unknown[];
		expect(next.length, path).toBeGreaterThanOrEqual(earlier.length);
		earlier.forEach((element, index) => expectExtends(element, next[index], `${path}[${index}]`));
	} else if (typeof earlier === "object" && earlier !== null) {
		expect(typeof later === "object" && later !== null && !Array.isArray(later), path).toBe(true);
		const next = later as Record<string, unknown>;
		for (const key of Object.keys(earlier)) {
			expect(Object.hasOwn(next, key), `${path}.${key} kept`).toBe(true);
			const before = Object.getOwnPropertyDescriptor(earlier, key)?.value as unknown;
			const after = Object.getOwnPropertyDescriptor(next, key)?.value as unknown;
			expectExtends(before, after, `${path}.${key}`);
		}
	} else {
		expect(Object.is(earlier, later), `${path}: ${String(earlier)} is final`).toBe(true);
	}
}

describe("StreamingJsonParser on any input", () => {
	it("push never throws and value is always readable, whatever arrives", () => {
		fc.assert(
			fc.property(anyText, cuts, (text, cutPoints) => {
				const parser = new StreamingJsonParser();
				for (const piece of pieces(text, cutPoints)) {
					expect(() => parser.push(piece)).not.toThrow();
					expect(() => parser.value).not.toThrow();
				}
				let finished: unknown;
				try {
					finished = parser.finish();
				} catch (error) {
					expect(error).toBeInstanceOf(StreamingJsonError);
					return;
				}
				expect(isDeepStrictEqual(finished, JSON.parse(text))).toBe(true);
			}),
			{ numRuns: 1500 },
		);
	});

	it("the partial value only grows, and stops changing at the first error", () => {
		fc.assert(
			fc.property(anyText, cuts, (text, cutPoints) => {
				const parser = new StreamingJsonParser();
				let previous: unknown;
				let frozen: unknown;
				let failed = false;
				let offset = 0;
				for (const piece of pieces(text, cutPoints)) {
					parser.push(piece);
					offset += piece.length;
					const current = snapshot(parser.value);
					expectExtends(previous, current);
					if (failed) expect(isDeepStrictEqual(current, frozen), "unchanged after the first error").toBe(true);
					previous = current;
					// Whether the input is already broken: a fresh parser on the prefix fails before its end.
					if (!failed) {
						const probe = new StreamingJsonParser();
						probe.push(text.slice(0, offset));
						try {
							probe.finish();
						} catch (error) {
							if (!/^Unexpected end of JSON input/.test((error as Error).message)) {
								failed = true;
								frozen = current;
							}
						}
					}
				}
			}),
			{ numRuns: 800 },
		);
	});

	it("the partial value does not depend on how the input was cut", () => {
		fc.assert(
			fc.property(anyText, cuts, (text, cutPoints) => {
				const whole = new StreamingJsonParser();
				whole.push(text);
				const cut = new StreamingJsonParser();
				for (const piece of pieces(text, cutPoints)) cut.push(piece);
				expect(isDeepStrictEqual(snapshot(cut.value), snapshot(whole.value)), JSON.stringify(text)).toBe(true);
			}),
			{ numRuns: 1500 },
		);
	});
});
