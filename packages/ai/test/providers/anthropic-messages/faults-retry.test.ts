import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamAnthropic } from "../../../src/providers/anthropic-messages.js";
import { assertEventProtocol, jsonResponse, loadFixture, recordEvents, type ReplayServer, sseResponse, startReplayServer, textResponse } from "../../../src/testing/index.js";
import type { RetryInfo } from "../../../src/types.js";
import { anthropicModel, ask } from "./helpers.js";

/** Retryable failures before the stream: rate limits, server errors and Anthropic's 529 overload. */
let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());

const KEY = "sk-ant-api03-retry-secret";
const OVERLOADED = { type: "error", error: { type: "overloaded_error", message: "Overloaded" } };

async function run(options: Parameters<typeof streamAnthropic>[2] = {}) {
	const retries: RetryInfo[] = [];
	const recorded = await recordEvents(
		streamAnthropic(anthropicModel({ baseUrl: server.url }), ask(), { apiKey: KEY, onRetry: (info) => retries.push(info), ...options }),
	);
	const { message } = assertEventProtocol(recorded);
	return { message, retries };
}

describe("anthropic-messages faults: retried", () => {
	it("429 with retry-after, then success: waits as asked, tells onRetry, and streams the reply", async () => {
		server.reset();
		server.enqueue(
			jsonResponse(429, { type: "error", error: { type: "rate_limit_error", message: "Number of request tokens has exceeded your per-minute rate limit" } }, { "retry-after": "0" }),
			sseResponse(loadFixture("anthropic-messages", "text-raw-padded")),
		);
		const { message, retries } = await run();
		expect(message.stopReason).toBe("stop");
		expect(message.content).toEqual([{ type: "text", text: "4200 + 42 = 4242" }]);
		expect(retries).toEqual([
			{ attempt: 1, delayMs: 0, status: 429, reason: "HTTP 429 Too Many Requests: rate_limit_error: Number of request tokens has exceeded your per-minute rate limit" },
		]);
		expect(server.requests).toHaveLength(2);
		expect(server.requests[1]?.json).toEqual(server.requests[0]?.json);
	});

	it("500, then success after a backoff", async () => {
		server.reset();
		server.enqueue(textResponse(500, "Internal Server Error"), sseResponse(loadFixture("anthropic-messages", "text-basic")));
		const { message, retries } = await run();
		expect(message.stopReason).toBe("stop");
		expect(message.responseId).toBe("msg_01QC4g3HwBThD4BaNtBckFDJ");
		expect(retries).toHaveLength(1);
		expect(retries[0]?.status).toBe(500);
		expect(retries[0]?.delayMs).toBeGreaterThanOrEqual(250);
	});

	it("529 overloaded_error, retried, then success", async () => {
		server.reset();
		server.enqueue(jsonResponse(529, OVERLOADED, { "retry-after": "0" }), sseResponse(loadFixture("anthropic-messages", "tool-use-single")));
		const { message, retries } = await run();
		expect(message.stopReason).toBe("toolUse");
		expect(message.content).toEqual([{ type: "toolCall", id: "toolu_01WEKmJ3p3NNoNbLUEaY1AU6", name: "get_book_info", arguments: { isbn: "0-7653-1178-X" } }]);
		expect(retries).toEqual([{ attempt: 1, delayMs: 0, status: 529, reason: "HTTP 529: overloaded_error: Overloaded" }]);
	});

	it("529 with retries used up: an error naming the status and Anthropic's error", async () => {
		server.reset();
		server.enqueue(jsonResponse(529, OVERLOADED, { "retry-after": "0" }), jsonResponse(529, OVERLOADED, { "retry-after": "0" }));
		const { message, retries } = await run({ maxRetries: 1 });
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe("HTTP 529: overloaded_error: Overloaded (after 1 retry)");
		expect(retries).toHaveLength(1);
		expect(message.content).toEqual([]);
	});
});
