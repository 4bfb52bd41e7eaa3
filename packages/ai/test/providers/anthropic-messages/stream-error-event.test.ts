import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamAnthropic } from "../../../src/providers/anthropic-messages.js";
import { assertEventProtocol, loadFixture, recordEvents, type ReplayServer, sseResponse, startReplayServer } from "../../../src/testing/index.js";
import type { TextContent, ThinkingContent } from "../../../src/types.js";
import { anthropicModel, ask, frame } from "./helpers.js";

/**
 * Errors inside a 200 stream. No public capture of Anthropic's `event: error` exists
 * (MANIFEST.md "Gaps"), so the body is the first events of a real capture followed by an error
 * frame in the wire shape seen in logs, padded like the other Anthropic data lines.
 */
let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());

const ERROR_FRAME =
	'event: error\ndata: {"type":"error","error":{"details":null,"type":"overloaded_error","message":"Overloaded"},"request_id":"req_011CTestOverloaded"}      \n\n';

/** The first `count` SSE events of a capture, byte for byte. */
function firstEvents(name: string, count: number): string {
	return loadFixture("anthropic-messages", name).toString("utf8").split("\n\n").slice(0, count).join("\n\n") + "\n\n";
}

async function run(body: string, seed = 1) {
	server.reset();
	server.enqueue(sseResponse(body, { chunking: { seed, maxChunkBytes: 41 } }));
	const recorded = await recordEvents(streamAnthropic(anthropicModel({ baseUrl: server.url }), ask(), { apiKey: "sk-ant-api03-events" }));
	return assertEventProtocol(recorded);
}

describe("anthropic-messages: errors inside the stream", () => {
	it("event: error mid-stream ends the message as an error naming type and message, keeping thinking and partial text", async () => {
		// thinking-signature.sse: events 0-2 start the message and the thinking block; by event 40
		// the thinking block (and its signature) has ended and the text block has begun.
		const body = firstEvents("thinking-signature", 40) + ERROR_FRAME + frame("message_stop", { type: "message_stop" });
		const results = new Set<string>();
		for (const seed of [1, 2, 3, 4, 5]) {
			const { message, counts } = await run(body, seed);
			expect(message.stopReason).toBe("error");
			expect(message.errorMessage).toBe("overloaded_error: Overloaded");
			expect(message.responseId).toBe("msg_01ALwQ87pTS7hH1PjSdC9wJD");
			expect(message.usage.input).toBe(43);
			const [thinking, text] = message.content as [ThinkingContent, TextContent];
			expect(thinking.thinking).toHaveLength(202);
			expect(thinking.thinkingSignature).toMatch(/^EvMCCkYICxgCKkCHP2cS/);
			expect(text.text.startsWith("Here are the basic steps")).toBe(true);
			expect(counts.text_end).toBe(1);
			results.add(JSON.stringify({ ...message, timestamp: 0 }));
		}
		expect(results.size).toBe(1);
	});

	it("an error event before any content: an error message with no content", async () => {
		const { message } = await run(firstEvents("text-raw-padded", 1) + ERROR_FRAME);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe("overloaded_error: Overloaded");
		expect(message.content).toEqual([]);
	});

	it("an error event without details still ends the message", async () => {
		const { message } = await run(frame("error", { type: "error" }));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe("The stream reported an error without details.");
	});

	it("a malformed JSON event fails the message clearly, keeping content", async () => {
		const body = firstEvents("text-basic", 5) + 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_d\n\n';
		const { message } = await run(body);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/^Malformed JSON in stream event "content_block_delta": \{"type":"content_block_delta"/);
		expect(message.content).toHaveLength(1);
		expect((message.content[0] as TextContent).text.length).toBeGreaterThan(0);
	});
});
