import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamAnthropic } from "../../../src/providers/anthropic-messages.js";
import { assertEventProtocol, loadFixture, recordEvents, type ReplayServer, sseResponse, startReplayServer } from "../../../src/testing/index.js";
import type { TextContent, ThinkingContent } from "../../../src/types.js";
import { anthropicModel, ask } from "./helpers.js";

/** The connection fails after the stream started: the content that arrived is kept. */
let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());

// thinking-signature.sse: the thinking block and its signature end before byte 3518, the text
// block runs from there to byte ~16300. Cutting at 9000 lands in the middle of the text.
const capture = loadFixture("anthropic-messages", "thinking-signature");
const CUT = 9000;

async function run(options: Parameters<typeof streamAnthropic>[2] = {}) {
	const recorded = await recordEvents(streamAnthropic(anthropicModel({ baseUrl: server.url }), ask(), { apiKey: "sk-ant-api03-conn", ...options }));
	return assertEventProtocol(recorded).message;
}

/** The whole signed thinking block, then part of the answer. */
function expectPartialContent(content: unknown[]): void {
	expect(content).toHaveLength(2);
	const [thinking, text] = content as [ThinkingContent, TextContent];
	expect(thinking.type).toBe("thinking");
	expect(thinking.thinking).toHaveLength(202);
	expect(thinking.thinkingSignature).toMatch(/^EvMCCkYICxgCKkCHP2cS/);
	expect(text.type).toBe("text");
	expect(text.text.startsWith("Here are the basic steps for safely crossing the street")).toBe(true);
	expect(text.text.length).toBeGreaterThan(100);
	expect(text.text.length).toBeLessThan(1021);
}

describe("anthropic-messages faults: connection", () => {
	it("reset mid-stream: error, partial content kept, not retried", async () => {
		server.reset();
		server.enqueue(sseResponse(capture, { resetAfterBytes: CUT }));
		const message = await run();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/^Network error/);
		expect(message.responseId).toBe("msg_01ALwQ87pTS7hH1PjSdC9wJD");
		expectPartialContent(message.content);
		expect(server.requests).toHaveLength(1);
	});

	it("stall mid-stream: the idle timeout ends it, naming the timeout, partial content kept", async () => {
		server.reset();
		server.enqueue(sseResponse(capture, { stallAfterBytes: CUT }));
		const message = await run({ idleTimeoutMs: 1_000 });
		// No time bound: the server stalls for ever, so only the idle timeout can have ended it.
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/idle timeout/);
		expect(message.errorMessage).toContain("1000 ms");
		expectPartialContent(message.content);
	});

	it("a body that ends cleanly before message_stop is an error, keeping the content", async () => {
		server.reset();
		server.enqueue(sseResponse(capture, { truncateAfterBytes: CUT }));
		const message = await run();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe("The stream ended before the provider's final event (message_stop).");
		expectPartialContent(message.content);
	});

	it("a stream cut after message_delta but before message_stop is still an error", async () => {
		const text = capture.toString("utf8");
		const cut = text.indexOf("event: message_stop");
		server.reset();
		server.enqueue(sseResponse(text.slice(0, cut)));
		const message = await run();
		expect(message.stopReason).toBe("error");
		expect(message.content.map((block) => block.type)).toEqual(["thinking", "text"]);
		expect(message.usage.output).toBe(282);
	});
});
