import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { htmlError, jsonResponse, loadFixture, type ReplayServer, sseResponse, startReplayServer, textResponse } from "../../src/testing/index.js";
import { post, readBody } from "./read-body.js";

const bytes = loadFixture("openai-responses", "text-then-function-call-phase"); // 16 KB with multi-byte characters
let server: ReplayServer;

beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());

/** True when `promise` is still pending after `ms`. */
async function stillPendingAfter(promise: Promise<unknown>, ms: number): Promise<boolean> {
	const marker = Symbol("pending");
	const winner = await Promise.race([promise.then(() => "settled", () => "settled"), new Promise((resolve) => setTimeout(() => resolve(marker), ms))]);
	return winner === marker;
}

describe("fault modes, as seen by plain fetch", () => {
	it("resetBeforeHeaders: fetch rejects, and the request is still recorded", async () => {
		server.reset();
		server.enqueue({ resetBeforeHeaders: true });
		await expect(post(`${server.url}/v1/messages`)).rejects.toThrow(TypeError);
		expect(server.requests.map((request) => request.path)).toEqual(["/v1/messages"]);
	});

	it("stallBeforeHeaders: fetch waits until the client gives up", async () => {
		server.enqueue({ stallBeforeHeaders: true });
		const started = Date.now();
		await expect(post(server.url, { signal: AbortSignal.timeout(150) })).rejects.toThrow(/aborted|timeout/i);
		expect(Date.now() - started).toBeGreaterThanOrEqual(140);
	});

	it("resetAfterBytes 0: headers arrive, then the body fails before its first byte", async () => {
		server.enqueue(sseResponse(bytes, { resetAfterBytes: 0 }));
		const response = await post(server.url);
		expect(response.status).toBe(200);
		const body = await readBody(response);
		expect(body.bytes.length).toBe(0);
		expect(body.error).toBeInstanceOf(Error);
	});

	it.each([1, 777, 5000, bytes.length])("resetAfterBytes %i: exactly that many bytes arrive, then the body fails", async (n) => {
		server.enqueue(sseResponse(bytes, { resetAfterBytes: n }));
		const body = await readBody(await post(server.url));
		expect(body.bytes.equals(bytes.subarray(0, n))).toBe(true);
		expect(body.error?.message).toMatch(/terminated/);
	});

	it.each([0, 1234])("stallAfterBytes %i: that many bytes arrive, then nothing, with the connection open", async (n) => {
		server.enqueue(sseResponse(bytes, { stallAfterBytes: n }));
		const controller = new AbortController();
		const response = await post(server.url, { signal: controller.signal });
		const reader = (response.body as ReadableStream<Uint8Array>).getReader();
		let received = 0;
		while (received < n) {
			const chunk = await reader.read();
			if (chunk.done) throw new Error("body ended early");
			received += chunk.value.length;
		}
		expect(received).toBe(n);
		const next = reader.read();
		expect(await stillPendingAfter(next, 150)).toBe(true);
		controller.abort();
		await expect(next).rejects.toThrow();
	});

	it.each([0, 100, 8191])("truncateAfterBytes %i: the body ends cleanly after that many bytes", async (n) => {
		server.enqueue(sseResponse(bytes, { truncateAfterBytes: n }));
		const body = await readBody(await post(server.url));
		expect(body.error).toBeUndefined();
		expect(body.bytes.equals(bytes.subarray(0, n))).toBe(true);
	});

	it("delayMs: paces the chunks", async () => {
		server.enqueue(sseResponse("x".repeat(50), { chunking: { minChunkBytes: 10, maxChunkBytes: 10, delayMs: 25 } }));
		const started = Date.now();
		const body = await readBody(await post(server.url));
		expect(body.bytes.toString()).toBe("x".repeat(50));
		expect(Date.now() - started).toBeGreaterThanOrEqual(100); // 5 chunks, a pause after each
	});
});

describe("HTTP error responses", () => {
	it("scripts 429 with retry-after, then success, in order", async () => {
		server.enqueue(jsonResponse(429, { error: { type: "rate_limit_error", message: "Slow down" } }, { "retry-after": "2" }), sseResponse("data: ok\n\n"));
		const first = await post(server.url);
		expect(first.status).toBe(429);
		expect(first.headers.get("retry-after")).toBe("2");
		expect(first.headers.get("content-type")).toBe("application/json");
		expect(await first.json()).toEqual({ error: { type: "rate_limit_error", message: "Slow down" } });
		const second = await post(server.url);
		expect(second.status).toBe(200);
		expect(await second.text()).toBe("data: ok\n\n");
	});

	it("sends retry-after as an HTTP date and retry-after-ms verbatim", async () => {
		const date = new Date(Date.now() + 3000).toUTCString();
		server.enqueue(textResponse(503, "overloaded", { "retry-after": date, "retry-after-ms": "1500" }));
		const response = await post(server.url);
		expect(response.status).toBe(503);
		expect(response.headers.get("retry-after")).toBe(date);
		expect(response.headers.get("retry-after-ms")).toBe("1500");
		expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
		expect(await response.text()).toBe("overloaded");
	});

	it("htmlError: an HTML page like a proxy's", async () => {
		server.enqueue(htmlError(502));
		const response = await post(server.url);
		expect(response.status).toBe(502);
		expect(response.headers.get("content-type")).toBe("text/html");
		expect(await response.text()).toContain("<title>502 Bad Gateway</title>");
	});

	it("defaults the content type by status and sends repeated headers", async () => {
		server.enqueue({}, { status: 500, body: "boom", headers: { "x-trace": ["a", "b"] } });
		const ok = await post(server.url);
		expect(ok.headers.get("content-type")).toBe("text/event-stream");
		expect(await ok.text()).toBe("");
		const failed = await post(server.url);
		expect(failed.headers.get("content-type")).toBe("text/plain; charset=utf-8");
		expect(failed.headers.get("x-trace")).toBe("a, b");
		expect(await failed.text()).toBe("boom");
	});
});

describe("enqueue rejects impossible scripts loudly", () => {
	it("rejects two faults, byte counts beyond the body, and bad statuses", () => {
		expect(() => server.enqueue({ body: "abc", resetAfterBytes: 1, truncateAfterBytes: 2 })).toThrow(/one fault, got resetAfterBytes and truncateAfterBytes/);
		expect(() => server.enqueue({ body: "abc", stallAfterBytes: 4 })).toThrow(/stallAfterBytes must be an integer from 0 to the body length \(3\)/);
		expect(() => server.enqueue({ status: 99 })).toThrow(TypeError);
		expect(server.pendingResponses).toBe(0);
	});
});
