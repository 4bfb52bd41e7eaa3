/**
 * HTTP faults before the stream starts: retried statuses, errors that are not retried, HTML error
 * pages. Everything ends as a final message; the key never shows.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamOpenAIResponses } from "../../../src/providers/openai-responses.js";
import { assertEventProtocol, htmlError, jsonResponse, loadFixture, recordEvents, type ReplayServer, sseResponse, startReplayServer } from "../../../src/testing/index.js";
import type { RetryInfo } from "../../../src/types.js";
import { API, responsesModel, TEST_KEY, userContext } from "./helpers.js";

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(async () => {
	await server.close();
});

describe("HTTP faults", () => {
	it("retries a 429 after its retry-after, tells onRetry, then streams the reply", async () => {
		server.reset();
		server.enqueue(
			jsonResponse(429, { error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" } }, { "retry-after-ms": "10" }),
			sseResponse(loadFixture(API, "text-basic")),
		);
		const retries: RetryInfo[] = [];
		const recorded = await recordEvents(streamOpenAIResponses(responsesModel(server), userContext(), { apiKey: TEST_KEY, onRetry: (info) => retries.push(info) }));
		const { message } = assertEventProtocol(recorded);
		expect(message.stopReason).toBe("stop");
		expect(message.content).toEqual([expect.objectContaining({ type: "text", text: "4200 + 42 equals 4242." })]);
		expect(retries).toHaveLength(1);
		expect(retries[0]).toMatchObject({ attempt: 1, delayMs: 10, status: 429 });
		expect(retries[0]?.reason).toContain("Rate limit reached");
		expect(server.requests).toHaveLength(2);
		expect(server.requests[1]?.json).toEqual(server.requests[0]?.json);
	});

	it("retries a 500 and succeeds", async () => {
		server.reset();
		server.enqueue(jsonResponse(500, { error: { message: "The server had an error", type: "server_error" } }, { "retry-after-ms": "1" }), sseResponse(loadFixture(API, "text-basic")));
		const message = await streamOpenAIResponses(responsesModel(server), userContext(), { apiKey: TEST_KEY }).result();
		expect(message.stopReason).toBe("stop");
		expect(server.requests).toHaveLength(2);
	});

	it("does not retry a 401; the message has the status and OpenAI's text, never the key", async () => {
		server.reset();
		server.enqueue(
			jsonResponse(401, { error: { message: `Incorrect API key provided: ${TEST_KEY}. You can find your API key at https://platform.openai.com/account/api-keys.`, type: "invalid_request_error", code: "invalid_api_key" } }),
		);
		const recorded = await recordEvents(streamOpenAIResponses(responsesModel(server), userContext(), { apiKey: TEST_KEY }));
		const { message } = assertEventProtocol(recorded);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain("401");
		expect(message.errorMessage).toContain("Incorrect API key provided");
		expect(message.errorMessage).not.toContain(TEST_KEY);
		expect(JSON.stringify(recorded.events)).not.toContain(TEST_KEY);
		expect(server.requests).toHaveLength(1);
	});

	it("extracts the message of an HTML 502 page, retries, and reports it when retries run out", async () => {
		server.reset();
		server.enqueue({ ...htmlError(502), headers: { "content-type": "text/html", "retry-after-ms": "1" } }, { ...htmlError(502), headers: { "content-type": "text/html", "retry-after-ms": "1" } });
		const message = await streamOpenAIResponses(responsesModel(server), userContext(), { apiKey: TEST_KEY, maxRetries: 1 }).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain("502");
		expect(message.errorMessage).toContain("502 Bad Gateway");
		expect(message.errorMessage).not.toContain("<html>");
		expect(server.requests).toHaveLength(2);
	});

	it("reports a JSON error body sent with status 200 instead of an event stream", async () => {
		server.reset();
		server.enqueue(jsonResponse(200, { error: { message: "Model not found", type: "invalid_request_error" } }));
		const message = await streamOpenAIResponses(responsesModel(server), userContext(), { apiKey: TEST_KEY }).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain("Model not found");
	});
});
