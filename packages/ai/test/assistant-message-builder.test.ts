import { describe, expect, it } from "vitest";
import { AssistantMessageBuilder } from "../src/assistant-message-builder.js";
import type { AssistantMessageEvent, Model } from "../src/types.js";

const model: Model<"test-api"> = {
	id: "test-model",
	name: "Test",
	api: "test-api",
	provider: "test",
	baseUrl: "http://127.0.0.1",
	reasoning: true,
	input: ["text"],
	cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
	contextWindow: 1000,
	maxTokens: 100,
};

async function drain(builder: AssistantMessageBuilder) {
	const events: AssistantMessageEvent[] = [];
	for await (const event of builder.stream) events.push(event);
	return { events, message: await builder.stream.result() };
}

describe("AssistantMessageBuilder", () => {
	it("pushes start first and keeps the partial pending until the end", async () => {
		const builder = new AssistantMessageBuilder(model);
		const pending: string[] = [];
		const text = builder.startText();
		pending.push(builder.message.stopReason);
		builder.appendText(text, "Hel");
		builder.appendText(text, "lo");
		pending.push(builder.message.stopReason);
		builder.finish("stop", { rawStopReason: "end_turn" });
		const { events, message } = await drain(builder);
		expect(pending).toEqual(["pending", "pending"]);
		expect(events.map((e) => e.type)).toEqual(["start", "text_start", "text_delta", "text_delta", "text_end", "done"]);
		expect(message.content).toEqual([{ type: "text", text: "Hello" }]);
		expect(message.stopReason).toBe("stop");
		expect(message.rawStopReason).toBe("end_turn");
	});

	it("parses tool-call arguments incrementally and shows the partial value", () => {
		const builder = new AssistantMessageBuilder(model);
		const call = builder.startToolCall("call_1", "get_weather");
		builder.appendToolCallArguments(call, '{"city":');
		builder.appendToolCallArguments(call, '"Par');
		const partial = builder.message.content[call];
		expect(partial).toMatchObject({ type: "toolCall", arguments: { city: "Par" } });
		builder.appendToolCallArguments(call, 'is"}');
		builder.end(call);
		expect(builder.message.content[call]).toEqual({ type: "toolCall", id: "call_1", name: "get_weather", arguments: { city: "Paris" } });
	});

	it("gives {} for a tool call with no argument text", () => {
		const builder = new AssistantMessageBuilder(model);
		const call = builder.startToolCall("call_1", "now");
		builder.finish("toolUse");
		expect(builder.message.content[call]).toEqual({ type: "toolCall", id: "call_1", name: "now", arguments: {} });
	});

	it("closes open blocks, in order, before the terminal event", async () => {
		const builder = new AssistantMessageBuilder(model);
		const thinking = builder.startThinking();
		const text = builder.startText();
		builder.appendThinking(thinking, "hmm");
		builder.appendText(text, "ok");
		builder.finish("length");
		const { events } = await drain(builder);
		expect(events.slice(-3).map((e) => e.type)).toEqual(["thinking_end", "text_end", "done"]);
	});

	it("emits exactly one terminal event; later finish and fail calls are ignored", async () => {
		const builder = new AssistantMessageBuilder(model);
		builder.finish("stop");
		builder.fail(new Error("late"));
		builder.finish("length");
		const { events, message } = await drain(builder);
		expect(events.filter((e) => e.type === "done" || e.type === "error")).toHaveLength(1);
		expect(message.stopReason).toBe("stop");
	});

	it("fails with aborted when the signal aborted, keeping content", async () => {
		const controller = new AbortController();
		const builder = new AssistantMessageBuilder(model);
		const text = builder.startText();
		builder.appendText(text, "partial answer");
		controller.abort();
		builder.fail(new Error("socket closed"), controller.signal);
		const { events, message } = await drain(builder);
		expect(message.stopReason).toBe("aborted");
		expect(message.errorMessage).toBe("Request was aborted.");
		expect(message.content).toEqual([{ type: "text", text: "partial answer" }]);
		expect(events.at(-1)).toMatchObject({ type: "error", reason: "aborted" });
	});

	it("scrubs secrets from error messages", async () => {
		const builder = new AssistantMessageBuilder(model, ["sk-secret-key-123"]);
		builder.fail(new Error("bad key sk-secret-key-123 given"));
		const message = await builder.stream.result();
		expect(message.errorMessage).toBe("bad key [REDACTED] given");
	});

	it("computes usage totals and cost from the model's prices", () => {
		const builder = new AssistantMessageBuilder(model);
		builder.setUsage({ input: 1_000_000, output: 2_000_000, cacheRead: 1_000_000 });
		builder.setUsage({ cacheWrite: 1_000_000 });
		const message = builder.finish("stop");
		expect(message.usage.totalTokens).toBe(5_000_000);
		expect(message.usage.cost).toEqual({ input: 3, output: 30, cacheRead: 0.3, cacheWrite: 3.75, total: 37.05 });
	});

	it("rejects appends to a block that is closed or of another type, naming the index", () => {
		const builder = new AssistantMessageBuilder(model);
		const text = builder.startText();
		expect(() => builder.appendThinking(text, "x")).toThrow(/no open thinking block at content index 0/);
		builder.end(text);
		expect(() => builder.appendText(text, "x")).toThrow(/no open text block at content index 0/);
	});

	it("sets the signature on the right field for each block type", () => {
		const builder = new AssistantMessageBuilder(model);
		const thinking = builder.startThinking();
		const text = builder.startText();
		const call = builder.startToolCall("id", "tool");
		builder.setSignature(thinking, "sig-t");
		builder.setSignature(text, "sig-x");
		builder.setSignature(call, "sig-c");
		builder.finish("toolUse");
		expect(builder.message.content).toEqual([
			{ type: "thinking", thinking: "", thinkingSignature: "sig-t" },
			{ type: "text", text: "", textSignature: "sig-x" },
			{ type: "toolCall", id: "id", name: "tool", arguments: {}, thoughtSignature: "sig-c" },
		]);
	});

	it("records the answering model only when it differs from the requested id; the first one wins", () => {
		const builder = new AssistantMessageBuilder(model);
		for (const ignored of [undefined, null, "", 42, "test-model"]) builder.setResponseModel(ignored);
		expect("responseModel" in builder.message).toBe(false);
		builder.setResponseModel("test-model-2025-01-01");
		builder.setResponseModel("test-model-2026-01-01");
		builder.finish("stop");
		expect(builder.message.responseModel).toBe("test-model-2025-01-01");
	});
});

describe("invalid tool-call arguments", () => {
	it("keep their best-effort value but are marked, so validation refuses them", async () => {
		const { toolArgumentsError } = await import("../src/assistant-message-builder.js");
		const { validateToolArguments } = await import("../src/validation/validate-tool-arguments.js");
		const builder = new AssistantMessageBuilder(model);
		const cut = builder.startToolCall("c1", "read");
		builder.appendToolCallArguments(cut, '{"path": "a.t');
		const whole = builder.startToolCall("c2", "read");
		builder.appendToolCallArguments(whole, '{"path": "a.txt"}');
		const none = builder.startToolCall("c3", "read");
		builder.appendToolCallArguments(none, "  ");
		const array = builder.startToolCall("c4", "read");
		builder.appendToolCallArguments(array, "[1]");
		builder.finish("toolUse");
		const [c1, c2, c3, c4] = builder.message.content as import("../src/types.js").ToolCall[];
		expect(c1?.arguments).toEqual({ path: "a.t" });
		expect(toolArgumentsError(c1!.arguments)).toMatch(/end of JSON input/);
		expect(toolArgumentsError(c2!.arguments)).toBeUndefined();
		expect(c3?.arguments).toEqual({});
		expect(toolArgumentsError(c3!.arguments)).toBeUndefined();
		expect(c4?.arguments).toEqual({});
		expect(toolArgumentsError(c4!.arguments)).toBe("expected a JSON object, got an array");
		const tool = { name: "read", description: "", parameters: { type: "object", properties: { path: { type: "string" } } } } as never;
		expect(() => validateToolArguments(tool, c1!)).toThrow(/^Invalid arguments for tool "read": the arguments were not valid JSON \(Unexpected end of JSON input/);
		expect(validateToolArguments(tool, c2!)).toEqual({ path: "a.txt" });
		expect(JSON.stringify(c1)).toBe('{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"a.t"}}');
	});
});
