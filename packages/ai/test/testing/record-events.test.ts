import { describe, expect, it } from "vitest";
import { AssistantMessageBuilder } from "../../src/assistant-message-builder.js";
import { AssistantMessageEventStream } from "../../src/event-stream.js";
import { assertEventProtocol, collectEvents, EventProtocolError, recordEvents } from "../../src/testing/index.js";
import type { AssistantMessage, Model } from "../../src/types.js";
import { makeMessage } from "./protocol-sequences.js";

const model: Model<"test-api"> = {
	id: "test-model",
	name: "Test",
	api: "test-api",
	provider: "test",
	baseUrl: "http://127.0.0.1",
	reasoning: false,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 1000,
	maxTokens: 100,
};

describe("collectEvents", () => {
	it("returns every event in order and the settled result", async () => {
		const builder = new AssistantMessageBuilder(model);
		const text = builder.startText();
		builder.appendText(text, "Hi");
		builder.finish("stop");
		const { events, message } = await collectEvents(builder.stream);
		expect(events.map((event) => event.type)).toEqual(["start", "text_start", "text_delta", "text_end", "done"]);
		expect(message).toBe(builder.message);
	});

	it("fails with the events seen so far when the stream never ends", async () => {
		const stream = new AssistantMessageEventStream();
		stream.push({ type: "start", partial: makeMessage([], "pending") });
		await expect(collectEvents(stream, { timeoutMs: 30 })).rejects.toThrow(/did not end within 30 ms\. 1 event\(s\) so far: start/);
	});
});

describe("recordEvents", () => {
	it("snapshots partial.stopReason and the event's block at push time", async () => {
		const stream = new AssistantMessageEventStream();
		const recording = recordEvents(stream);
		// The builder pushes everything synchronously, before the consumer sees a single event.
		const builder = new AssistantMessageBuilder(model, [], stream);
		const thinking = builder.startThinking();
		builder.appendThinking(thinking, "hmm");
		const call = builder.startToolCall("call_1", "lookup");
		builder.appendToolCallArguments(call, '{"q":1}');
		builder.finish("toolUse");
		const recorded = await recording;
		expect(recorded.partialStates).toEqual([
			{ stopReason: "pending", blockType: undefined },
			{ stopReason: "pending", blockType: "thinking" },
			{ stopReason: "pending", blockType: "thinking" },
			{ stopReason: "pending", blockType: "toolCall" },
			{ stopReason: "pending", blockType: "toolCall" },
			{ stopReason: "pending", blockType: "thinking" },
			{ stopReason: "pending", blockType: "toolCall" },
			undefined,
		]);
		expect(assertEventProtocol(recorded).message.stopReason).toBe("toolUse");
	});

	it("lets the checker catch a producer that sets the stop reason before its terminal event", async () => {
		// A producer that mutates the shared partial early: invisible after the fact, caught by the snapshot.
		const stream = new AssistantMessageEventStream();
		const recording = recordEvents(stream);
		const message: AssistantMessage = makeMessage([], "pending");
		stream.push({ type: "start", partial: message });
		message.content.push({ type: "text", text: "" });
		message.stopReason = "stop";
		stream.push({ type: "text_start", contentIndex: 0, partial: message });
		stream.push({ type: "text_end", contentIndex: 0, content: "", partial: message });
		stream.push({ type: "done", reason: "stop", message });
		const recorded = await recording;
		expect(() => assertEventProtocol(recorded.events)).not.toThrow();
		expect(() => assertEventProtocol(recorded)).toThrow(EventProtocolError);
		expect(() => assertEventProtocol(recorded)).toThrow(/"pending-while-streaming" broken at event #1/);
	});

	it("leaves no snapshot for events pushed before it was called, and restores push", async () => {
		const stream = new AssistantMessageEventStream();
		const message = makeMessage([], "pending");
		stream.push({ type: "start", partial: message });
		const recording = recordEvents(stream);
		message.stopReason = "stop";
		stream.push({ type: "done", reason: "stop", message });
		const recorded = await recording;
		expect(recorded.partialStates).toEqual([undefined, undefined]);
		expect(Object.hasOwn(stream, "push")).toBe(false);
	});
});
