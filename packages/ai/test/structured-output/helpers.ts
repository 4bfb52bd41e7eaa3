import { Type } from "typebox";
import { loadFixture } from "../../src/testing/index.js";
import type { AssistantMessage, AssistantMessageEvent } from "../../src/types.js";

/** The schema of the recorded `structured-output` captures (Mirascope's `Book`). */
export const Book = Type.Object({
	title: Type.String(),
	author: Type.Object({ first_name: Type.String(), last_name: Type.String() }),
	rating: Type.Integer(),
});

/** The object every `structured-output` capture answers with. */
export const BOOK = { title: "THE NAME OF THE WIND", author: { first_name: "Patrick", last_name: "Rothfuss" }, rating: 7 };

/** The schema of the recorded tool runs (`structured-output-tool-call` / `-after-tool`, Mirascope's `BookSummary`). */
export const BookSummary = Type.Object({
	title: Type.String(),
	author: Type.String(),
	pages: Type.Integer(),
	publication_year: Type.Integer(),
});

export const BOOK_SUMMARY = { title: "Mistborn: The Final Empire", author: "Brandon Sanderson", pages: 544, publication_year: 2006 };

/** The tool of the recorded tool runs, with its real answer. */
export const getBookInfo = {
	name: "get_book_info",
	description: "Look up book information by ISBN.",
	parameters: Type.Object({ isbn: Type.String() }),
};
export const BOOK_INFO = "Title: Mistborn: The Final Empire, Author: Brandon Sanderson, Pages: 544, Published: 2006-07-25";

/** One text_delta's `partialOutput`, copied at the moment it arrived (the live value keeps growing). */
export interface Collected {
	events: AssistantMessageEvent[];
	partials: unknown[];
	message: AssistantMessage;
}

/** Reads a stream to its end, copying each `partialOutput` as it arrives. */
export async function collectOutput(stream: AsyncIterable<AssistantMessageEvent> & { result(): Promise<AssistantMessage> }): Promise<Collected> {
	const events: AssistantMessageEvent[] = [];
	const partials: unknown[] = [];
	for await (const event of stream) {
		events.push(event);
		if (event.type === "text_delta") partials.push(event.partialOutput === undefined ? undefined : structuredClone(event.partialOutput));
	}
	return { events, partials, message: await stream.result() };
}

/**
 * Whether `after` only adds to `before`: strings grow at the end, arrays and objects keep every
 * element and member (each growing in turn), other values stay the same.
 */
export function grows(before: unknown, after: unknown): boolean {
	if (before === undefined) return true;
	if (typeof before === "string") return typeof after === "string" && after.startsWith(before);
	if (Array.isArray(before)) return Array.isArray(after) && after.length >= before.length && before.every((item, i) => grows(item, after[i]));
	if (typeof before === "object" && before !== null) {
		if (typeof after !== "object" || after === null || Array.isArray(after)) return false;
		return Object.entries(before).every(([key, value]) => key in after && grows(value, (after as Record<string, unknown>)[key]));
	}
	return Object.is(before, after);
}

/** Asserts that each partial value only adds to the one before, and that the last one is `final`. */
export function expectGrowing(partials: unknown[], final: unknown, expect: (value: unknown) => { toEqual(expected: unknown): void; toBe(expected: unknown): void }): void {
	expect(partials.length > 1).toBe(true);
	for (let i = 1; i < partials.length; i++) {
		if (!grows(partials[i - 1], partials[i])) throw new Error(`partialOutput shrank at text_delta ${i}: ${JSON.stringify(partials[i - 1])} → ${JSON.stringify(partials[i])}`);
	}
	expect(partials[partials.length - 1]).toEqual(final);
}

/**
 * A recorded capture with one string replaced everywhere: the real stream's shape, with a reply
 * the test needs (a value that does not match the schema). Throws when `from` is not in it.
 */
export function alteredFixture(api: string, name: string, from: string, to: string): Buffer {
	const text = loadFixture(api, name).toString("utf8");
	if (!text.includes(from)) throw new Error(`${api}/${name} has no ${JSON.stringify(from)}`);
	return Buffer.from(text.split(from).join(to), "utf8");
}
