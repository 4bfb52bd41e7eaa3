import type { ImageContent } from "@pi/ai";
import type { AgentMessage } from "../types.js";

/** What `typeof`-style name a bad argument gets in an error: `undefined`, `null`, `number`, `array`, … */
function describe(value: unknown): string {
	if (value === null) return "null";
	if (Array.isArray(value)) return "array";
	return typeof value;
}

function isMessage(value: unknown): value is AgentMessage {
	return typeof value === "object" && value !== null && typeof (value as { role?: unknown }).role === "string";
}

/**
 * The messages a `prompt()` call starts its run with: a text (and images) becomes one user
 * message; a message or an array of messages is taken as it is. Anything else throws a
 * `TypeError` that names `prompt()`'s argument and what it got, before a run starts (without
 * this check, `prompt(undefined)` failed deep inside the run with an unrelated message).
 */
export function promptMessages(input: unknown, images: unknown): AgentMessage[] {
	if (typeof input === "string") {
		if (images !== undefined && !Array.isArray(images)) {
			throw new TypeError(`prompt(text, images): \`images\` must be an array of image blocks when given; got ${describe(images)}`);
		}
		const content = [{ type: "text" as const, text: input }, ...((images as ImageContent[] | undefined) ?? [])];
		return [{ role: "user", content, timestamp: Date.now() }];
	}
	if (Array.isArray(input)) {
		const bad = input.findIndex((message) => !isMessage(message));
		if (bad >= 0) {
			throw new TypeError(`prompt(messages): messages[${bad}] is not a message (an object with a \`role\`); got ${describe(input[bad])}`);
		}
		return input;
	}
	if (isMessage(input)) return [input];
	throw new TypeError(`prompt(input): \`input\` must be a string, a message (an object with a \`role\`) or an array of messages; got ${describe(input)}`);
}
