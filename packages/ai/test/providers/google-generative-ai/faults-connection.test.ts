/** Connection faults and aborts: resets, stalls, truncation, and the caller's signal at several points. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { streamGoogle } from "../../../src/providers/google-generative-ai.js";
import { assertEventProtocol, loadFixture, type ReplayServer, recordEvents, sseResponse, startReplayServer } from "../../../src/testing/index.js";
import type { AssistantMessageEvent } from "../../../src/types.js";
import { API, geminiModel, HELLO, onServer, run, TEST_KEY } from "./helpers.js";

const THINKING = loadFixture(API, "thinking-thought-summaries");
const VERTEX = loadFixture(API, "vertex-stream-function-call-arguments");

/** The byte offset just after the n-th `\r\n\r\n` event separator. */
function afterEvent(bytes: Uint8Array, n: number): number {
	const text = Buffer.from(bytes).toString("latin1");
	let offset = 0;
	for (let i = 0; i < n; i++) offset = text.indexOf("\r\n\r\n", offset) + 4;
	return offset;
}

describe("google-generative-ai faults: connection and abort", () => {
	let server: ReplayServer;
	beforeAll(async () => {
		server = await startReplayServer();
	});
	afterAll(() => server.close());
	afterEach(() => server.reset());

	it("keeps the content when the connection resets mid-stream, and does not retry", async () => {
		server.enqueue(sseResponse(THINKING, { resetAfterBytes: afterEvent(THINKING, 6) + 10 }));
		const { message } = assertEventProtocol(await run(server));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBeTruthy();
		expect(message.content.map((block) => block.type)).toEqual(["thinking", "text"]);
		expect(message.content[1]).toMatchObject({ type: "text", text: expect.stringMatching(/^This is a great question!/) });
		expect(message.responseId).toBe("beHBaJfEMIi-qtsP3769-Q8");
		expect(server.requests).toHaveLength(1);
	});

	it("ends a stalled stream with an idle-timeout error, keeping the content", async () => {
		server.enqueue(sseResponse(THINKING, { stallAfterBytes: afterEvent(THINKING, 2) }));
		const { message } = assertEventProtocol(await run(server, { idleTimeoutMs: 1_000 }));
		// No time bound: the server stalls for ever, so only the idle timeout can have ended it.
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/idle timeout/i);
		expect(message.content).toHaveLength(1);
		expect(message.content[0]).toMatchObject({ type: "thinking", thinking: expect.stringMatching(/^\*\*Clarifying User Goals\*\*/) });
	});

	it("reports a stream cut short without a finishReason as an error, keeping the content", async () => {
		server.enqueue(sseResponse(THINKING, { truncateAfterBytes: afterEvent(THINKING, 8) }));
		const { message } = assertEventProtocol(await run(server));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain("stream ended before the provider's final event");
		expect(message.rawStopReason).toBeUndefined();
		expect(message.content.map((block) => block.type)).toEqual(["thinking", "text"]);
		expect(message.usage.input).toBe(34);
	});

	it("keeps the arguments of a Vertex streamed call cut off before its end marker", async () => {
		// Up to and including the first call's string pieces, before its `functionCall: {}` end marker.
		server.enqueue(sseResponse(VERTEX, { truncateAfterBytes: afterEvent(VERTEX, 3) }));
		const { message } = assertEventProtocol(await run(server));
		expect(message.stopReason).toBe("error");
		expect(message.content).toHaveLength(1);
		expect(message.content[0]).toMatchObject({ type: "toolCall", name: "getWeather", arguments: { location: "Boston" } });
	});

	it("keeps the arguments of a Vertex streamed call when the connection resets inside it", async () => {
		server.enqueue(sseResponse(VERTEX, { resetAfterBytes: afterEvent(VERTEX, 6) + 5 }));
		const { message } = assertEventProtocol(await run(server));
		expect(message.stopReason).toBe("error");
		expect(message.content).toHaveLength(2);
		expect(message.content[1]).toMatchObject({ type: "toolCall", name: "getWeather", arguments: { location: "San Francisco" } });
	});

	it("ends as aborted without a request when the signal is already aborted", async () => {
		const controller = new AbortController();
		controller.abort();
		const { message } = assertEventProtocol(await run(server, { signal: controller.signal }));
		expect(message.stopReason).toBe("aborted");
		expect(message.errorMessage).toBeTruthy();
		expect(server.requests).toHaveLength(0);
	});

	it("ends as aborted while waiting for the response headers", async () => {
		server.enqueue({ stallBeforeHeaders: true });
		const controller = new AbortController();
		const stream = streamGoogle(onServer(server, geminiModel()), HELLO, { apiKey: TEST_KEY, signal: controller.signal });
		setTimeout(() => controller.abort(), 50);
		const { message } = assertEventProtocol(await recordEvents(stream));
		expect(message.stopReason).toBe("aborted");
		expect(message.content).toEqual([]);
	});

	it("ends as aborted mid-stream, keeping what arrived", async () => {
		// A server of its own: the request the test above aborted can still reach the shared one
		// after its reset and take the response scripted here.
		const own = await startReplayServer();
		try {
			own.enqueue(sseResponse(THINKING, { stallAfterBytes: afterEvent(THINKING, 6) }));
			const controller = new AbortController();
			const stream = streamGoogle(onServer(own, geminiModel()), HELLO, { apiKey: TEST_KEY, signal: controller.signal });
			const events: AssistantMessageEvent[] = [];
			for await (const event of stream) {
				events.push(event);
				if (event.type === "text_delta") controller.abort(new Error("user pressed stop"));
			}
			const message = await stream.result();
			assertEventProtocol({ events, message });
			expect(message.stopReason).toBe("aborted");
			expect(message.errorMessage).toContain("user pressed stop");
			expect(message.content.map((block) => block.type)).toEqual(["thinking", "text"]);
			expect((message.content[1] as { text: string }).text.length).toBeGreaterThan(0);
		} finally {
			await own.close();
		}
	});
});
