import { StreamingJsonParser } from "../utils/streaming-json.js";

/** What {@link StructuredOutputReader.finish} found: the value, or why there is none. */
export type OutputReadResult = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * Turns a reply's streamed text into the partial and the final JSON value, with the incremental
 * parser: each delta costs time proportional to its length, and nothing is parsed twice.
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

	/** Feeds the next piece of the reply's text. Never throws. */
	push(delta: string): void {
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

	/** The value parsed so far: a live object that grows in place (`undefined` before any JSON). */
	get partial(): unknown {
		return this.previous ?? this.parser.value;
	}

	/** Forgets everything read: text before a tool call is not the reply's output. */
	reset(): void {
		this.parser = new StreamingJsonParser();
		this.pushed = 0;
		this.previous = undefined;
	}

	/** Ends the text: the last complete value, or the parser's message for text that is not JSON. */
	finish(): OutputReadResult {
		try {
			return { ok: true, value: this.parser.finish() };
		} catch (error) {
			return { ok: false, error: error instanceof Error ? error.message : String(error) };
		}
	}
}
