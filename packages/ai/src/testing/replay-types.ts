/**
 * The replay server's vocabulary: what a test scripts, and what the server records. Its own file
 * so that the cassette player and the route table, which speak it, do not import the server.
 */
import type { RecordedTiming } from "./recorded-timing.js";
import type { ChunkingOptions } from "./split-into-chunks.js";

/** How a response body is cut and paced on the wire. */
export interface ReplayChunking extends ChunkingOptions {
	/**
	 * Pause between chunks, in milliseconds. Default `0`: no timer, but the server still yields to
	 * the event loop between chunks, so each chunk leaves as its own write and a client in the same
	 * process sees them one by one.
	 */
	delayMs?: number;
}

/**
 * One scripted answer. Every field is optional: `{}` is an empty `200` event stream. Set at most
 * one fault (`resetBeforeHeaders`, `stallBeforeHeaders`, `resetAfterBytes`, `stallAfterBytes`,
 * `truncateAfterBytes`); `enqueue` throws otherwise. Byte counts refer to the body, not the headers.
 */
export interface ScriptedResponse {
	/** HTTP status. Default `200`. */
	status?: number;
	/**
	 * Response headers, e.g. `{ "retry-after": "2" }`. Without a `content-type`, it is
	 * `text/event-stream` for a 2xx status and `text/plain; charset=utf-8` otherwise. Without a
	 * `content-length`, the body is sent with chunked transfer encoding.
	 */
	headers?: Record<string, string | readonly string[]>;
	/** The body: a string (sent as UTF-8) or bytes, e.g. a capture from `loadFixture`. Default empty. */
	body?: string | Uint8Array;
	/** Overrides the server's chunking for this response, field by field. */
	chunking?: ReplayChunking;
	/** Read the request, then destroy the connection without sending anything: `fetch` rejects. */
	resetBeforeHeaders?: boolean;
	/** Read the request, then send nothing, keeping the connection open until the client leaves or the server closes. */
	stallBeforeHeaders?: boolean;
	/** Send the headers and the first `n` body bytes, then destroy the connection: reading the body fails. `0` fails before the first byte. */
	resetAfterBytes?: number;
	/** Send the headers and the first `n` body bytes, then send nothing more, keeping the connection open. */
	stallAfterBytes?: number;
	/** Send the headers and the first `n` body bytes, then end the response cleanly: the client sees a normal, short body. */
	truncateAfterBytes?: number;
	/** Send the body in these recorded chunks, waiting the recorded time before each, instead of random chunks. */
	recordedTiming?: RecordedTiming;
}

/** One request the server received. */
export interface RecordedRequest {
	/** Upper-case method, e.g. `POST`. */
	method: string;
	/** Path and query exactly as on the request line, e.g. `/v1beta/models/x:streamGenerateContent?alt=sse`. */
	path: string;
	/** Header names lower-cased; repeated headers joined with `, `. */
	headers: Record<string, string>;
	/** The body decoded as UTF-8; `""` when there is none. */
	body: string;
	/** The body parsed as JSON; `undefined` when it is empty or not JSON. */
	json: unknown;
}
