import type { AssistantMessage } from "../types.js";
import type { StructuredOutputReader } from "./output-reader.js";

/**
 * The `text_delta` event of a reply with structured output. `partialOutput` is a getter on the
 * prototype: the incremental parser runs when a consumer reads it, and creating the event costs
 * what a plain event costs (an accessor in an object literal costs V8 about 1.5 µs per event,
 * twenty times a plain one). Being on the prototype, it is not copied by `JSON.stringify`,
 * spread or `structuredClone`: read it to keep it.
 */
export class StructuredTextDeltaEvent {
	readonly type = "text_delta";
	readonly #reader: StructuredOutputReader;

	constructor(
		readonly contentIndex: number,
		readonly delta: string,
		readonly partial: AssistantMessage,
		reader: StructuredOutputReader,
	) {
		this.#reader = reader;
	}

	/** The reply's JSON parsed so far: a live value that only grows (`undefined` before any JSON). */
	get partialOutput(): unknown {
		return this.#reader.partial;
	}
}
