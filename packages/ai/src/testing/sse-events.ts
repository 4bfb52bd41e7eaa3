/**
 * Event-level views of a recorded SSE body, for scripting resumed streams: which bytes hold which
 * event, the events after a cursor, and a response cut (dropped) after a given event.
 */
import { type ResponseExtras, sseResponse } from "./scripted-responses.js";
import type { ScriptedResponse } from "./replay-types.js";

/** One event of an SSE body: its bytes (blank line included) and its `data:` parsed as JSON, when it is. */
export interface SseEventBytes {
	bytes: Uint8Array;
	/** The joined `data:` lines. */
	data: string;
	/** `data` parsed as JSON; `undefined` when it is not JSON. */
	json: unknown;
}

/**
 * Splits an SSE body into its events, each keeping its exact bytes (LF, CRLF or CR framing, so
 * Gemini's CRLF captures split too). A trailing fragment without its blank line is not an event.
 *
 * @example
 * const events = splitSseEvents(loadFixture("openai-responses", "background-queued"));
 * events[0]?.json; // { type: "response.created", … }
 */
export function splitSseEvents(body: string | Uint8Array): SseEventBytes[] {
	const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
	const events: SseEventBytes[] = [];
	let start = 0;
	let i = 0;
	while (i < bytes.length) {
		const end = blankLineEnd(bytes, i);
		if (end === undefined) {
			i++;
			continue;
		}
		const slice = bytes.subarray(start, end);
		const text = new TextDecoder().decode(slice);
		const data = text
			.split(/\r\n|\r|\n/)
			.filter((line) => line.startsWith("data:"))
			.map((line) => line.slice(5).replace(/^ /, ""))
			.join("\n");
		if (data !== "" || /\S/.test(text)) events.push({ bytes: slice, data, json: parseJson(data) });
		start = end;
		i = end;
	}
	return events;
}

/** Joins events back into one body. */
export function joinSseEvents(events: readonly SseEventBytes[]): Uint8Array {
	const total = events.reduce((sum, event) => sum + event.bytes.length, 0);
	const out = new Uint8Array(total);
	let at = 0;
	for (const event of events) {
		out.set(event.bytes, at);
		at += event.bytes.length;
	}
	return out;
}

/**
 * A `200` event stream of `events` whose connection drops (is reset) right after the first
 * `dropAfter` events have been sent; without `dropAfter`, the whole stream, ended cleanly.
 *
 * @example
 * route({ method: "GET", path: "/v1/responses/{id}", respond: sseEventsResponse(events.slice(3), { dropAfter: 2 }) });
 */
export function sseEventsResponse(events: readonly SseEventBytes[], options: { dropAfter?: number } & ResponseExtras = {}): ScriptedResponse {
	const { dropAfter, ...extras } = options;
	const body = joinSseEvents(events);
	if (dropAfter === undefined || dropAfter >= events.length) return sseResponse(body, extras);
	const cut = joinSseEvents(events.slice(0, Math.max(0, dropAfter))).length;
	return sseResponse(body, { ...extras, resetAfterBytes: cut });
}

/** Where the blank line that ends an event at `i` ends, or `undefined` when none ends at `i`. */
function blankLineEnd(bytes: Uint8Array, i: number): number | undefined {
	const lineEnd = (at: number): number | undefined => {
		if (bytes[at] === 10) return at + 1;
		if (bytes[at] === 13) return bytes[at + 1] === 10 ? at + 2 : at + 1;
		return undefined;
	};
	const first = lineEnd(i);
	if (first === undefined) return undefined;
	return lineEnd(first);
}

function parseJson(data: string): unknown {
	if (data.trim() === "") return undefined;
	try {
		return JSON.parse(data);
	} catch {
		return undefined;
	}
}
