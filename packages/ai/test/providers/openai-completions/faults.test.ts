import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamOpenAICompletions } from "../../../src/providers/openai-completions.js";
import {
	assertEventProtocol,
	htmlError,
	jsonResponse,
	recordEvents,
	type ReplayServer,
	sseResponse,
	startReplayServer,
} from "../../../src/testing/index.js";
import type { AssistantMessage, RetryInfo } from "../../../src/types.js";
import type { OpenAICompletionsOptions } from "../../../src/providers/openai-completions.js";
import { ask, chunk, completionsModel, textStream } from "./helpers.js";

/** Failures of the server and the network, through the real local replay server. */

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());

const KEY = "sk-proj-SECRET-4d1c9a";
/** The first part of a stream: one text delta, then (in the full body) more text and the end. */
const HEAD = chunk({ role: "assistant", content: "Partial " });
const BODY = HEAD + chunk({ content: "answer." }) + chunk({}, "stop") + "data: [DONE]\n\n";

async function run(options: OpenAICompletionsOptions = {}): Promise<AssistantMessage> {
	const model = completionsModel({ baseUrl: `${server.url}/v1` });
	const recorded = await recordEvents(streamOpenAICompletions(model, ask(), { apiKey: KEY, ...options }));
	const { message } = assertEventProtocol(recorded);
	expect(JSON.stringify(recorded.events)).not.toContain(KEY);
	return message;
}

describe("retries before any content", () => {
	it("429 with retry-after, then success: onRetry is told, the reply completes", async () => {
		server.reset();
		server.enqueue(jsonResponse(429, { error: { message: "Rate limit reached", type: "requests" } }, { "retry-after": "0" }), sseResponse(textStream("Hi")));
		const retries: RetryInfo[] = [];
		const message = await run({ onRetry: (info) => retries.push(info) });
		expect(message.stopReason).toBe("stop");
		expect(message.content).toEqual([{ type: "text", text: "Hi" }]);
		expect(retries).toHaveLength(1);
		expect(retries[0]).toMatchObject({ attempt: 1, delayMs: 0, status: 429 });
		expect(server.requests).toHaveLength(2);
	});

	it("500, then success", async () => {
		server.reset();
		server.enqueue(jsonResponse(500, { error: { message: "The server had an error" } }, { "retry-after-ms": "10" }), sseResponse(textStream("Back")));
		const message = await run();
		expect(message.stopReason).toBe("stop");
		expect(message.content).toEqual([{ type: "text", text: "Back" }]);
		expect(server.requests).toHaveLength(2);
	});
});

describe("HTTP errors", () => {
	it("401: the message has the status and the provider's message, never the key", async () => {
		server.reset();
		server.enqueue(
			jsonResponse(401, { error: { message: `Incorrect API key provided: ${KEY}.`, type: "invalid_request_error", code: "invalid_api_key" } }),
		);
		const message = await run();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain("401");
		expect(message.errorMessage).toContain("Incorrect API key provided");
		expect(message.errorMessage).not.toContain(KEY);
		expect(server.requests).toHaveLength(1);
	});

	it("an HTML 502 page: the message comes from the page", async () => {
		server.reset();
		server.enqueue(htmlError(502));
		const message = await run({ maxRetries: 0 });
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain("502");
		expect(message.errorMessage).toContain("Bad Gateway");
		expect(message.errorMessage).not.toContain("<html>");
	});
});

describe("failures mid-stream keep the content that arrived", () => {
	it("connection reset", async () => {
		server.reset();
		server.enqueue(sseResponse(BODY, { resetAfterBytes: Buffer.byteLength(HEAD) }));
		const message = await run();
		expect(message.stopReason).toBe("error");
		expect(message.content).toEqual([{ type: "text", text: "Partial " }]);
		expect(server.requests).toHaveLength(1);
	});

	it("stall: the idle timeout ends it, naming the idle timeout", async () => {
		server.reset();
		server.enqueue(sseResponse(BODY, { stallAfterBytes: Buffer.byteLength(HEAD) }));
		const message = await run({ idleTimeoutMs: 1_000 });
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/idle timeout/i);
		expect(message.content).toEqual([{ type: "text", text: "Partial " }]);
	});

	it("a clean but truncated body ends in error (no finish_reason), keeping content", async () => {
		server.reset();
		server.enqueue(sseResponse(BODY, { truncateAfterBytes: Buffer.byteLength(HEAD) }));
		const message = await run();
		expect(message.stopReason).toBe("error");
		expect(message.content).toEqual([{ type: "text", text: "Partial " }]);
	});
});

describe("abort", () => {
	it("before the request: aborted, nothing sent", async () => {
		server.reset();
		server.enqueue(sseResponse(textStream()));
		const message = await run({ signal: AbortSignal.abort() });
		expect(message.stopReason).toBe("aborted");
		expect(server.requests).toHaveLength(0);
	});

	it("while waiting for the response headers", async () => {
		server.reset();
		server.enqueue({ stallBeforeHeaders: true });
		const controller = new AbortController();
		setTimeout(() => controller.abort(), 50);
		const message = await run({ signal: controller.signal });
		expect(message.stopReason).toBe("aborted");
		expect(message.content).toEqual([]);
	});

	it("during the stream: aborted promptly, content kept", async () => {
		// A server of its own: the request the test above aborted can still reach the shared one
		// after its reset and take the response scripted here.
		const own = await startReplayServer();
		try {
			own.enqueue(sseResponse(BODY, { stallAfterBytes: Buffer.byteLength(HEAD) }));
			const controller = new AbortController();
			const model = completionsModel({ baseUrl: `${own.url}/v1` });
			const stream = streamOpenAICompletions(model, ask(), { apiKey: KEY, signal: controller.signal });
			const events = [];
			for await (const event of stream) {
				events.push(event);
				if (event.type === "text_delta") controller.abort();
			}
			const message = await stream.result();
			// No time bound: the server stalls for ever, so only the abort can have ended it.
			expect(message.stopReason, message.errorMessage).toBe("aborted");
			expect(message.content).toEqual([{ type: "text", text: "Partial " }]);
			assertEventProtocol({ events, message });
		} finally {
			await own.close();
		}
	});
});
