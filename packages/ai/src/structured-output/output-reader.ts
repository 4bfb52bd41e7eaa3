import { StreamingJsonParser } from "../utils/streaming-json.js";

/** What {@link StructuredOutputReader.finish} found: the value, or why there is none. */
export type OutputReadResult = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * Turns a reply's streamed text into the partial and the final JSON value.
 *
 * The incremental parser runs when the partial value is read: the deltas pushed since the last
 * read are fed to it then, so each character is parsed once and a read costs time proportional
 * to the text that arrived since the one before. A reply whose partial value nobody reads is
 * parsed once at the end with `JSON.parse` (native, several times faster); where that fails, the
 * incremental parser reads the text to give its exact message.
 *
 * Text holding several JSON values one after another (`{…}\n{…}`) is read value by value and ends
 * with the last one: gpt-4o repeats its object after tool calls (see
 * fixtures/openai-completions/structured-output-after-tool.sse). While a later value streams,
 * `partial` keeps showing the last complete one, so the partial value never shrinks.
 */
export class StructuredOutputReader {
	private parser = new StreamingJsonParser();
	/** Code units pushed into the current parser. */
	private pushed = 0;
	private previous: unknown = undefined;
	/** Deltas not yet fed to the parser: all of them when nobody read the partial value. */
	private pending: string[] = [];
	/** Whether the parser has been fed anything since the last reset. */
	private parsing = false;

	/** Takes the next piece of the reply's text. Never throws. */
	push(delta: string): void {
		this.pending.push(delta);
	}

	/** The value parsed so far: a live object that grows in place (`undefined` before any JSON). */
	get partial(): unknown {
		this.feed();
		return this.previous ?? this.parser.value;
	}

	/** Forgets everything read: text before a tool call is not the reply's output. */
	reset(): void {
		this.parser = new StreamingJsonParser();
		this.pushed = 0;
		this.previous = undefined;
		this.pending = [];
		this.parsing = false;
	}

	/** Ends the text: the last complete value, or the parser's message for text that is not JSON. */
	finish(): OutputReadResult {
		if (!this.parsing) {
			try {
				return { ok: true, value: JSON.parse(this.pending.join("")) };
			} catch {
				// Not one JSON value: the incremental parser says where and why, or reads several values.
			}
		}
		this.feed();
		try {
			return { ok: true, value: this.parser.finish() };
		} catch (error) {
			return { ok: false, error: error instanceof Error ? error.message : String(error) };
		}
	}

	private feed(): void {
		const pending = this.pending;
		if (pending.length === 0) return;
		this.pending = [];
		this.parsing = true;
		for (const delta of pending) this.pushToParser(delta);
	}

	private pushToParser(delta: string): void {
		let chunk = delta;
		for (;;) {
			const before = this.pushed;
			this.parser.push(chunk);
			const trailing = this.parser.trailingOffset;
			if (trailing === undefined) {
				this.pushed += chunk.length;
				return;
			}
			// A complete value, then another one: keep the first, read the rest with a fresh parser.
			this.previous = this.parser.value;
			chunk = chunk.slice(trailing - before);
			this.parser = new StreamingJsonParser();
			this.pushed = 0;
		}
	}
}
