import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamAnthropic } from "../../../src/providers/anthropic-messages.js";
import { assertEventProtocol, htmlError, jsonResponse, recordEvents, type ReplayServer, startReplayServer } from "../../../src/testing/index.js";
import { anthropicModel, ask } from "./helpers.js";

/** HTTP errors that are not retried, or not any more: the message names status and cause, never the key. */
let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());

const KEY = "sk-ant-api03-very-secret-key";

async function run(options: Parameters<typeof streamAnthropic>[2] = {}) {
	const recorded = await recordEvents(streamAnthropic(anthropicModel({ baseUrl: server.url }), ask(), { apiKey: KEY, ...options }));
	const { message, counts } = assertEventProtocol(recorded);
	return { message, counts, events: recorded.events };
}

describe("anthropic-messages faults: HTTP errors", () => {
	it("401: status and Anthropic's message, not retried, the key scrubbed from everything", async () => {
		server.reset();
		server.enqueue(jsonResponse(401, { type: "error", error: { type: "authentication_error", message: `invalid x-api-key ${KEY}` } }));
		const { message, events } = await run();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe("HTTP 401 Unauthorized: authentication_error: invalid x-api-key [REDACTED]");
		expect(server.requests).toHaveLength(1);
		expect(JSON.stringify(events)).not.toContain(KEY);
		expect(JSON.stringify(message)).not.toContain(KEY);
	});

	it("400 invalid_request_error: Anthropic's message, not retried", async () => {
		server.reset();
		server.enqueue(jsonResponse(400, { type: "error", error: { type: "invalid_request_error", message: "messages: text content blocks must be non-empty" } }));
		const { message } = await run();
		expect(message.errorMessage).toBe("HTTP 400 Bad Request: invalid_request_error: messages: text content blocks must be non-empty");
		expect(server.requests).toHaveLength(1);
	});

	it("HTML 502 from a proxy: the message is taken from the page", async () => {
		server.reset();
		server.enqueue(htmlError(502), htmlError(502));
		const { message } = await run({ maxRetries: 1, onRetry: () => {} });
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/^HTTP 502 Bad Gateway: 502 Bad Gateway/);
		expect(message.errorMessage).not.toContain("<");
		expect(server.requests).toHaveLength(2);
	});

	it("a JSON error body with status 200 where a stream was expected", async () => {
		server.reset();
		server.enqueue(jsonResponse(200, { type: "error", error: { type: "api_error", message: "Internal server error" } }));
		const { message } = await run({ maxRetries: 0 });
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe("HTTP 200: expected an event stream, got application/json: api_error: Internal server error");
	});
});
