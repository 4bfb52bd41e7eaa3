import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiCallError, IdleTimeoutError } from "../../src/http/api-call-error.js";
import { postEventStream, postEventStreamBatches, type EventStreamRequest, type ServerSentEvent, transportOptions } from "../../src/http/post-event-stream.js";
import { htmlError, jsonResponse, type ReplayServer, sseResponse, startReplayServer, textResponse } from "../../src/testing/index.js";
import type { RetryInfo } from "../../src/types.js";
import { settleIo } from "./settle-io.js";

const KEY = "sk-test-secret-0123456789";
const BODY = 'event: a\ndata: {"n":1}\n\ndata: {"n":2}\r\n\r\ndata: {"text":"héllo 😀"}\n\n';

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer({ chunking: { minChunkBytes: 1, maxChunkBytes: 5 } });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

function request(overrides: Partial<EventStreamRequest> = {}): EventStreamRequest {
	return { url: `${server.url}/v1/stream`, headers: { authorization: `Bearer ${KEY}` }, body: { hello: "world" }, secrets: [KEY], ...overrides };
}

async function collect(req: EventStreamRequest): Promise<ServerSentEvent[]> {
	const events: ServerSentEvent[] = [];
	for await (const event of postEventStream(req)) events.push(event);
	return events;
}

async function failure(req: EventStreamRequest, seen: ServerSentEvent[] = []): Promise<Error> {
	try {
		for await (const event of postEventStream(req)) seen.push(event);
	} catch (error) {
		return error as Error;
	}
	throw new Error("expected the stream to fail");
}

describe("postEventStream", () => {
	it("POSTs JSON and yields events across awkward chunking, CRLF and multi-byte characters", async () => {
		server.enqueue(sseResponse(BODY));
		expect(await collect(request())).toEqual([
			{ event: "a", data: '{"n":1}' },
			{ event: undefined, data: '{"n":2}' },
			{ event: undefined, data: '{"text":"héllo 😀"}' },
		]);
		const sent = server.requests[0];
		expect(sent?.method).toBe("POST");
		expect(sent?.json).toEqual({ hello: "world" });
		expect(sent?.headers["content-type"]).toBe("application/json");
		expect(sent?.headers.accept).toBe("text/event-stream");
	});

	it("accepts a byte-order mark and CR-only line endings", async () => {
		server.enqueue(sseResponse('\uFEFFdata: {"a":1}\r\rdata: {"b":2}\r\r'));
		expect(await collect(request())).toEqual([
			{ event: undefined, data: '{"a":1}' },
			{ event: undefined, data: '{"b":2}' },
		]);
	});

	it("retries a 429 only once its retry-after (in seconds) has passed, reporting the retry before the wait", async () => {
		// The wait is the behaviour: on fake timers, a 5 s retry-after costs nothing, and the second
		// request may come only once the clock has been moved past it.
		vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
		try {
			server.enqueue(jsonResponse(429, { error: { message: "Rate limit reached" } }, { "retry-after": "5" }), sseResponse(BODY));
			const retries: RetryInfo[] = [];
			const events = collect(request({ onRetry: (info) => retries.push(info) }));
			await settleIo(() => retries.length === 1, 30_000);
			expect(retries).toEqual([{ attempt: 1, delayMs: 5_000, status: 429, reason: "HTTP 429 Too Many Requests: Rate limit reached" }]);
			expect(server.requests).toHaveLength(1);
			await vi.advanceTimersByTimeAsync(4_999);
			// Time for a premature retry to show (it would, without the wait); nothing must arrive.
			await settleIo(() => server.requests.length > 1, 200);
			expect(server.requests).toHaveLength(1);
			await vi.advanceTimersByTimeAsync(1);
			expect(await events).toHaveLength(3);
			expect(server.requests).toHaveLength(2);
		} finally {
			vi.useRealTimers();
		}
	});

	it("prefers retry-after-ms, and understands retry-after as an HTTP date", async () => {
		// An HTTP date has whole seconds: 2 s ahead is still at least 1 s ahead once truncated.
		const date = new Date(Date.now() + 2000).toUTCString();
		server.enqueue(
			jsonResponse(429, {}, { "retry-after-ms": "20", "retry-after": "30" }),
			jsonResponse(503, {}, { "retry-after": date }),
			sseResponse(BODY),
		);
		const retries: RetryInfo[] = [];
		await collect(request({ onRetry: (info) => retries.push(info) }));
		expect(retries[0]?.delayMs).toBe(20);
		expect(retries[1]?.delayMs).toBeGreaterThan(0);
		expect(retries[1]?.delayMs).toBeLessThanOrEqual(2000);
	});

	it("gives up at once when the server asks to wait longer than maxRetryDelayMs, saying how long", async () => {
		server.enqueue(jsonResponse(429, { error: { message: "Slow down" } }, { "retry-after": "120" }));
		const error = await failure(request({ maxRetryDelayMs: 5000 }));
		expect(error).toBeInstanceOf(ApiCallError);
		expect(error.message).toBe(
			"HTTP 429 Too Many Requests: Slow down The server asked to retry after 120 s, longer than maxRetryDelayMs (5 s); not retrying.",
		);
		expect(server.requests).toHaveLength(1);
	});

	it("retries a 500 with backoff, then succeeds", async () => {
		server.enqueue(textResponse(500, "internal error"), sseResponse(BODY));
		const retries: RetryInfo[] = [];
		expect(await collect(request({ onRetry: (info) => retries.push(info) }))).toHaveLength(3);
		expect(retries).toHaveLength(1);
		expect(retries[0]?.delayMs).toBeGreaterThanOrEqual(250);
		expect(retries[0]?.delayMs).toBeLessThanOrEqual(500);
	});

	it("stops after maxRetries and says how many retries it made", async () => {
		server.enqueue(jsonResponse(529, { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }, { "retry-after": "0" }));
		server.enqueue(jsonResponse(529, { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }, { "retry-after": "0" }));
		const error = (await failure(request({ maxRetries: 1 }))) as ApiCallError;
		expect(error.message).toBe("HTTP 529: overloaded_error: Overloaded (after 1 retry)");
		expect(error.status).toBe(529);
		expect(server.requests).toHaveLength(2);
	});

	it("names a throwing onRetry callback in the error", async () => {
		server.enqueue(textResponse(503, "busy"), sseResponse(BODY));
		const error = await failure(
			request({
				onRetry: () => {
					throw new Error("listener bug");
				},
			}),
		);
		expect(error.message).toBe("The onRetry callback failed: listener bug");
		expect(server.requests).toHaveLength(1);
	});

	it("does not retry when maxRetries is 0", async () => {
		server.enqueue(textResponse(503, "busy"), sseResponse(BODY));
		await failure(request({ maxRetries: 0 }));
		expect(server.requests).toHaveLength(1);
	});

	it("does not retry a 401, and never puts the key in the message", async () => {
		server.enqueue(jsonResponse(401, { error: { message: `Incorrect API key provided: ${KEY}`, type: "invalid_request_error", code: "invalid_api_key" } }));
		const error = (await failure(request())) as ApiCallError;
		expect(error.message).toBe("HTTP 401 Unauthorized: invalid_request_error: Incorrect API key provided: [REDACTED]");
		expect(error.isRetryable).toBe(false);
		expect(server.requests).toHaveLength(1);
	});

	it("extracts the title of an HTML error page", async () => {
		server.enqueue(htmlError(502), htmlError(502), htmlError(502));
		const error = await failure(request({ maxRetries: 0 }));
		expect(error.message).toBe("HTTP 502 Bad Gateway: 502 Bad Gateway");
	});

	it("fails on a 200 answer with a JSON error body instead of an event stream", async () => {
		server.enqueue(jsonResponse(200, { error: { message: "quota exceeded" } }));
		const error = await failure(request());
		expect(error.message).toBe("HTTP 200: expected an event stream, got application/json: quota exceeded");
		expect(server.requests).toHaveLength(1);
	});

	it("retries a connection reset before the headers", async () => {
		server.enqueue({ resetBeforeHeaders: true }, sseResponse(BODY));
		expect(await collect(request({ onRetry: () => {} }))).toHaveLength(3);
		expect(server.requests).toHaveLength(2);
	});

	it("never retries once events were yielded: a reset mid-stream fails, keeping what arrived", async () => {
		server.enqueue(sseResponse(BODY, { resetAfterBytes: 40 }), sseResponse(BODY));
		const seen: ServerSentEvent[] = [];
		const error = await failure(request(), seen);
		expect(seen.length).toBeGreaterThanOrEqual(1);
		expect(error.message).toMatch(/^Network error: /);
		expect(server.requests).toHaveLength(1);
	});

	it("ends a stream that stalls mid-way with an idle timeout", async () => {
		server.enqueue(sseResponse(BODY, { stallAfterBytes: 40 }));
		const seen: ServerSentEvent[] = [];
		const error = await failure(request({ idleTimeoutMs: 1_000 }), seen);
		expect(seen.length).toBeGreaterThanOrEqual(1);
		expect(error.message).toBe("No data received for 1000 ms (idle timeout); the connection was closed.");
		// No time bound: the server stalls for ever, so only the idle timeout can have ended it.
	});

	it("times out a server that never answers, retrying first", async () => {
		server.enqueue({ stallBeforeHeaders: true }, { stallBeforeHeaders: true });
		const error = await failure(request({ idleTimeoutMs: 100, maxRetries: 1, onRetry: () => {} }));
		expect(error.message).toMatch(/No data received for 100 ms \(idle timeout\).* \(after 1 retry\)$/);
		expect(server.requests).toHaveLength(2);
	});

	it("rejects promptly with the signal's reason when aborted mid-stream", async () => {
		server.enqueue(sseResponse(BODY, { stallAfterBytes: 40 }));
		const controller = new AbortController();
		const seen: ServerSentEvent[] = [];
		setTimeout(() => controller.abort(), 50);
		const error = await failure(request({ signal: controller.signal }), seen);
		// No time bound: the server stalls for ever, so only the abort can have ended it.
		expect(error.name).toBe("AbortError");
	});

	it("stops waiting between retries when aborted", async () => {
		server.enqueue(jsonResponse(429, {}, { "retry-after": "30" }));
		const controller = new AbortController();
		const pending = failure(request({ signal: controller.signal, onRetry: () => setTimeout(() => controller.abort(), 20) }));
		const error = await pending;
		expect(error.name).toBe("AbortError");
		// Not waited out (retry-after is 30 s): a retry would have made a second request.
		expect(server.requests).toHaveLength(1);
	});

	it("reports a refused connection as a network error after its retries", async () => {
		const closed = await startReplayServer();
		const url = `${closed.url}/x`;
		await closed.close();
		const error = (await failure({ url, headers: {}, body: {}, maxRetries: 0 })) as ApiCallError;
		expect(error.message).toMatch(/^Network error: fetch failed/);
		expect(error.isRetryable).toBe(true);
	});
});

describe("postEventStreamBatches", () => {
	it("yields the events of each network read together, never an empty batch", async () => {
		server.enqueue(sseResponse(BODY, { chunking: { minChunkBytes: 4096, maxChunkBytes: 4096 } }));
		const batches: ServerSentEvent[][] = [];
		for await (const batch of postEventStreamBatches(request())) batches.push(batch);
		expect(batches).toHaveLength(1);
		expect(batches[0]).toHaveLength(3);
		server.enqueue(sseResponse(BODY, { chunking: { minChunkBytes: 1, maxChunkBytes: 1 } }));
		const small: ServerSentEvent[][] = [];
		for await (const batch of postEventStreamBatches(request())) small.push(batch);
		expect(small.flat()).toEqual(batches[0]);
		for (const batch of small) expect(batch.length).toBeGreaterThan(0);
	});
});

describe("transportOptions", () => {
	it("passes exactly the transport fields of the stream options", () => {
		const signal = new AbortController().signal;
		const onRetry = () => {};
		expect(transportOptions({ signal, maxRetries: 1, maxRetryDelayMs: 2, idleTimeoutMs: 3, onRetry, apiKey: "k", temperature: 1 })).toEqual({
			signal,
			maxRetries: 1,
			maxRetryDelayMs: 2,
			idleTimeoutMs: 3,
			onRetry,
		});
	});
});

describe("IdleTimeoutError", () => {
	it("names the timeout", () => {
		expect(new IdleTimeoutError(5).message).toContain("5 ms");
	});
});
