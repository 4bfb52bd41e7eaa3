import type { EventSourceMessage, createParser as CreateParser } from "eventsource-parser";
import { redactSecrets } from "../utils/redact.js";
import { ApiCallError } from "./api-call-error.js";
import { extractErrorMessage } from "./error-body.js";
import { type HttpCall, startCall } from "./http-call.js";
import { openResponse } from "./open-response.js";
import type { HttpRequest } from "./request-options.js";
import { DEFAULT_MAX_EVENT_BYTES, eventSizeLimit } from "./event-size-limit.js";

export { DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_MAX_RETRIES, DEFAULT_MAX_RETRY_DELAY_MS, transportOptions } from "./request-options.js";

/**
 * A request whose answer is read as server-sent events: an {@link HttpRequest} (the name is the
 * reference's), plus the bound on one event.
 */
export interface EventStreamRequest extends HttpRequest {
	/** Fail (unretried) on an event, or a line, larger than this. Default {@link DEFAULT_MAX_EVENT_BYTES}. */
	maxEventBytes?: number;
}

let createParser: typeof CreateParser | undefined;

/**
 * eventsource-parser, loaded by the first request rather than at import: importing `@pi/ai` stays
 * cheap. The load starts before the request is sent, so it overlaps the network round trip.
 */
async function loadParser(): Promise<typeof CreateParser> {
	createParser ??= (await import("eventsource-parser")).createParser;
	return createParser;
}

/** One server-sent event: its `event:` name (when present) and its `data:`. */
export type ServerSentEvent = Pick<EventSourceMessage, "event" | "data">;

/**
 * The one HTTP seam of every provider: POSTs a JSON body and yields the server-sent events of
 * the response as they arrive.
 *
 * - Non-2xx answers, and 2xx answers that are not an event stream (a JSON error body where SSE
 *   was expected), throw an {@link ApiCallError} naming the status and the provider's message.
 * - Network errors, 408, 409, 429, 5xx and 529 are retried with exponential backoff and jitter,
 *   only before the first event was yielded, honouring `retry-after-ms` / `retry-after`. A
 *   server asking for longer than `maxRetryDelayMs` fails at once, saying how long it asked for.
 * - With no bytes for `idleTimeoutMs`, the connection is closed and {@link IdleTimeoutError}
 *   is thrown, also while waiting for the response headers.
 * - Aborting `signal` rejects promptly with the signal's reason. Returning early from the
 *   iteration (or throwing) cancels the body, which releases the socket. No timer or listener
 *   outlives the generator.
 */
export async function* postEventStream(request: EventStreamRequest): AsyncGenerator<ServerSentEvent, void, void> {
	for await (const batch of postEventStreamBatches(request)) yield* batch;
}

/**
 * {@link postEventStream}, yielding the events of each network read together. Providers use it:
 * one await per read instead of one per event halves the cost of small events (Anthropic and
 * OpenAI send one per token). Same guarantees; a batch is never empty.
 */
export async function* postEventStreamBatches(request: EventStreamRequest): AsyncGenerator<ServerSentEvent[], void, void> {
	const call = startCall(request);
	try {
		for (let attempt = 0; ; attempt++) {
			// An abort that came before the request (say, while `onPayload` ran) must keep it unsent.
			if (call.signal?.aborted) throw call.signal.reason;
			let yielded = false;
			try {
				for await (const batch of attempt_(request, call)) {
					yielded = true;
					yield batch;
				}
				return;
			} catch (error) {
				// Content already given to the caller is never asked for again: no retry after it.
				await call.retryAfter(error, attempt, () => yielded);
			}
		}
	} finally {
		call.end();
	}
}

/** One HTTP attempt: send it, check the answer, then parse the body as it streams. */
async function* attempt_(request: EventStreamRequest, call: HttpCall): AsyncGenerator<ServerSentEvent[], void, void> {
	const parserReady = loadParser();
	parserReady.catch(() => {}); // awaited once the response is in; a failed request never gets there
	const opened = await openResponse(request, call.signal, call.body, "event-stream");
	const { response } = opened;
	let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
	let nextRead: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
	try {
		if (!response.body) throw new ApiCallError("The response has no body.", { url: request.url, status: response.status });

		// A read is always pending, requested before anything else is awaited and again as soon as
		// one completes: bytes that arrive while no read is pending wait in the body's queue, and a
		// connection reset right after them empties that queue (the body stream errors), which
		// would lose content the server did send.
		const bodyReader = response.body.getReader();
		reader = bodyReader;
		const read = () => {
			const next = bodyReader.read();
			next.catch(() => {}); // handled where it is awaited; this only keeps it from counting as unhandled meanwhile
			return next;
		};
		nextRead = read();
		let events: ServerSentEvent[] = [];
		// The parser's own message objects are handed on as they are: a copy per event would be
		// garbage on the hottest path (Anthropic and OpenAI send an event per token).
		const limit = eventSizeLimit(request.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES, request.url);
		const parser = (await parserReady)({ onEvent: (message) => events.push(message), maxBufferSize: limit.maxBufferSize, onError: limit.onError });
		const decoder = new TextDecoder();
		let endsWithCarriageReturn = false;
		// The start of a body that has produced no event yet: a proxy or gateway that answers 200
		// with an `event-stream` label but a JSON (or text) error body has no `data:` lines, and its
		// message would otherwise be lost in "the stream ended before its final event".
		let eventless: string | undefined = "";
		for (;;) {
			let chunk: ReadableStreamReadResult<Uint8Array>;
			try {
				chunk = await nextRead;
				if (!chunk.done) nextRead = read();
			} catch (error) {
				throw opened.explain(error);
			}
			if (chunk.done) break;
			opened.refresh();
			const text = decoder.decode(chunk.value, { stream: true });
			if (text.length > 0) endsWithCarriageReturn = text.charCodeAt(text.length - 1) === 13;
			if (eventless !== undefined && eventless.length < EVENTLESS_BODY_LIMIT) eventless += text;
			parser.feed(text);
			if (events.length > 0) {
				eventless = undefined;
				const batch = events;
				events = [];
				yield batch;
			}
			const tooLarge = limit.exceeded();
			if (tooLarge) throw tooLarge;
		}
		// A body whose last line ends in a lone CR (CR-only framing) leaves the parser waiting for a
		// possible LF; at the end of the body there is none, so the line is complete.
		parser.feed(decoder.decode() + (endsWithCarriageReturn ? "\n" : ""));
		if (events.length === 0 && eventless !== undefined) {
			const error = eventlessBodyError(response, eventless, request.url, request.secrets ?? []);
			if (error) throw error;
		}
		if (events.length > 0) yield events;
		reader = undefined;
	} catch (error) {
		// A failed attempt's body is cancelled at once.
		reader?.cancel().catch(() => {});
		reader = undefined;
		throw error;
	} finally {
		opened.close();
		// Still set: the caller left after the provider's final event. What follows that event (the
		// end of the body, a `[DONE]`) is usually on its way, and a body read to its end keeps the
		// connection for the next request. An aborted one is cancelled at once.
		if (reader && nextRead && !opened.aborted) void drainBody(reader, nextRead);
		else reader?.cancel().catch(() => {});
	}
}

/** How long a body the caller no longer reads is given to end before it is cancelled. */
const DRAIN_MS = 500;
/** How much of it is read at most. */
const DRAIN_LIMIT_BYTES = 65_536;

/**
 * Reads the rest of a body nobody wants, so that it can end by itself: `fetch` closes the
 * connection of a cancelled body, and the next request to the same server then opens a new one
 * (a new TLS handshake, in production). Cancels it after {@link DRAIN_MS} or
 * {@link DRAIN_LIMIT_BYTES}; never throws. `pending` is the read already requested.
 */
async function drainBody(reader: ReadableStreamDefaultReader<Uint8Array>, pending: Promise<ReadableStreamReadResult<Uint8Array>>): Promise<void> {
	const cancel = () => reader.cancel().catch(() => {});
	const deadline = setTimeout(cancel, DRAIN_MS);
	// A server that keeps the body open must not keep a process alive that has nothing else to do.
	(deadline as { unref?: () => void }).unref?.();
	try {
		let bytes = 0;
		for (let read = pending; ; read = reader.read()) {
			const chunk = await read;
			if (chunk.done) return;
			bytes += chunk.value.byteLength;
			if (bytes > DRAIN_LIMIT_BYTES) {
				await cancel();
				return;
			}
		}
	} catch {
		// The body failed or was cancelled: there is nothing left to release.
	} finally {
		clearTimeout(deadline);
	}
}

/** How much of an event-less body is kept to explain it. */
const EVENTLESS_BODY_LIMIT = 65_536;

/**
 * The error for a 2xx event stream that ended without a single event but had lines that are not
 * SSE: an error body under an `event-stream` label. `undefined` when there is nothing but SSE (an
 * empty body, keep-alives, an event cut off), so that the provider reports the missing final event.
 */
function eventlessBodyError(response: Response, body: string, url: string, secrets: readonly (string | undefined)[]): ApiCallError | undefined {
	const content = body
		.replace(/^\uFEFF/, "")
		.split(/\r\n|\r|\n/)
		// Comments (keep-alives) and a cut-off first event are SSE, not an error body.
		.filter((line) => !line.startsWith(":") && !/^(data|event|id|retry)(:|$)/.test(line))
		.join("\n");
	const providerMessage = extractErrorMessage(content, secrets);
	if (providerMessage === undefined) return undefined;
	const message = redactSecrets(`HTTP ${response.status}: the event stream held no events, only this body: ${providerMessage}`, secrets);
	return new ApiCallError(message, { url, status: response.status, providerMessage: redactSecrets(providerMessage, secrets) });
}

