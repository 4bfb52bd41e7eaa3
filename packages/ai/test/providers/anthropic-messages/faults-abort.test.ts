import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamAnthropic } from "../../../src/providers/anthropic-messages.js";
import { assertEventProtocol, jsonResponse, loadFixture, recordEvents, type ReplayServer, sseResponse, startReplayServer } from "../../../src/testing/index.js";
import type { AssistantMessageEvent } from "../../../src/types.js";
import { anthropicModel, ask } from "./helpers.js";

/** The caller's signal, at several points: always `aborted`, promptly, with the content that arrived. */
let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());

const parallel = loadFixture("anthropic-messages", "tool-use-parallel");

describe("anthropic-messages faults: abort", () => {
	it("aborted before the call: no request, an aborted message", async () => {
		server.reset();
		const controller = new AbortController();
		controller.abort();
		const recorded = await recordEvents(streamAnthropic(anthropicModel({ baseUrl: server.url }), ask(), { apiKey: "sk-ant-api03-abort", signal: controller.signal }));
		const { message } = assertEventProtocol(recorded);
		expect(message.stopReason).toBe("aborted");
		expect(message.errorMessage).toBe("Request was aborted.");
		await new Promise((resolve) => setTimeout(resolve, 50));
		expect(server.requests).toHaveLength(0);
	});

	it("aborted while waiting for the response headers", async () => {
		server.reset();
		server.enqueue({ stallBeforeHeaders: true });
		const controller = new AbortController();
		const stream = streamAnthropic(anthropicModel({ baseUrl: server.url }), ask(), { apiKey: "sk-ant-api03-abort", signal: controller.signal });
		setTimeout(() => controller.abort(), 50);
		const { message } = assertEventProtocol(await recordEvents(stream));
		expect(message.stopReason).toBe("aborted");
		expect(message.content).toEqual([]);
	});

	it("aborted during a retry wait: ends at once, without waiting out retry-after", async () => {
		// A server of its own: the stalled request of the test before may still be recorded by the
		// shared one after its reset, and this test counts requests.
		const own = await startReplayServer();
		try {
			own.enqueue(jsonResponse(529, { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }, { "retry-after": "30" }));
			const controller = new AbortController();
			const stream = streamAnthropic(anthropicModel({ baseUrl: own.url }), ask(), {
				apiKey: "sk-ant-api03-abort",
				signal: controller.signal,
				onRetry: () => setTimeout(() => controller.abort(), 20),
			});
			const { message } = assertEventProtocol(await recordEvents(stream));
			expect(message.stopReason).toBe("aborted");
			// Not waited out (retry-after is 30 s): a retry would have made a second request.
			expect(own.requests).toHaveLength(1);
		} finally {
			await own.close();
		}
	});

	it("aborted mid-stream, inside the second of two parallel tool calls: text and calls so far are kept", async () => {
		server.reset();
		// Stall right after the first non-empty input_json_delta of the second call (block index 2).
		const text = parallel.toString("utf8");
		const secondCall = text.indexOf('"partial_json":"{\\"passw"');
		expect(secondCall).toBeGreaterThan(0);
		const stallAt = Buffer.byteLength(text.slice(0, text.indexOf("\n\n", secondCall) + 2));
		server.enqueue(sseResponse(parallel, { stallAfterBytes: stallAt }));
		const controller = new AbortController();
		const stream = streamAnthropic(anthropicModel({ baseUrl: server.url }), ask(), { apiKey: "sk-ant-api03-abort", signal: controller.signal, idleTimeoutMs: 5000 });
		const events: AssistantMessageEvent[] = [];
		for await (const event of stream) {
			events.push(event);
			if (event.type === "toolcall_delta" && event.contentIndex === 2) controller.abort(new Error("user pressed stop"));
		}
		const message = await stream.result();
		assertEventProtocol({ events, message });
		expect(message.stopReason).toBe("aborted");
		expect(message.errorMessage).toBe("Request was aborted: user pressed stop");
		expect(message.content[0]).toEqual({ type: "text", text: "I'll retrieve the secrets for both passwords you provided." });
		expect(message.content[1]).toEqual({ type: "toolCall", id: "toolu_015cUijgET79LXjgeYQerN2h", name: "secret_retrieval_tool", arguments: { password: "mellon" } });
		// The cut-off call keeps the best-effort parse of `{"passw`: a started object with no complete key.
		expect(message.content[2]).toEqual({ type: "toolCall", id: "toolu_01XZTimPexA7h3EVKesnKt5T", name: "secret_retrieval_tool", arguments: {} });
		expect(events.filter((event) => event.type === "toolcall_end")).toHaveLength(2);
	});
});
