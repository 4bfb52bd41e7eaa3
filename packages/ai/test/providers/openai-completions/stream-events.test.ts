import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamOpenAICompletions } from "../../../src/providers/openai-completions.js";
import { assertEventProtocol, recordEvents, type ReplayServer, sseResponse, startReplayServer } from "../../../src/testing/index.js";
import type { AssistantMessage, Model } from "../../../src/types.js";
import { ask, chunk, completionsModel, data } from "./helpers.js";

/**
 * How wire chunks become one message: hand-built streams for the cases the captures do not
 * show, replayed through the local server in small random chunks.
 */

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer({ chunking: { maxChunkBytes: 16 } });
});
afterAll(() => server.close());

const DONE = "data: [DONE]\n\n";

async function replay(body: string, model: Model<"openai-completions"> = completionsModel()): Promise<AssistantMessage> {
	server.reset();
	server.enqueue(sseResponse(body));
	const recorded = await recordEvents(streamOpenAICompletions({ ...model, baseUrl: `${server.url}/v1` }, ask(), { apiKey: "sk-test", maxRetries: 0 }));
	return assertEventProtocol(recorded).message;
}

const toolDelta = (index: number | undefined, fields: { id?: string; name?: string; arguments?: string }) => ({
	tool_calls: [
		{
			...(index === undefined ? {} : { index }),
			...(fields.id ? { id: fields.id, type: "function" } : {}),
			function: { ...(fields.name ? { name: fields.name } : {}), ...(fields.arguments !== undefined ? { arguments: fields.arguments } : {}) },
		},
	],
});

describe("finishing", () => {
	it("usage arriving after the finish chunk (choices: []) is kept", async () => {
		const message = await replay(
			chunk({ content: "Hi" }) + chunk({}, "stop") + data({ id: "x", choices: [], usage: { prompt_tokens: 10, completion_tokens: 3, prompt_tokens_details: { cached_tokens: 4 } } }) + DONE,
		);
		expect(message.stopReason).toBe("stop");
		expect(message.usage).toMatchObject({ input: 6, output: 3, cacheRead: 4, cacheWrite: 0, totalTokens: 13 });
		expect(message.usage.cost.total).toBeGreaterThan(0);
	});

	it("a body that ends after a finish_reason but without [DONE] still finishes normally", async () => {
		const message = await replay(chunk({ content: "Hi" }) + chunk({}, "length"));
		expect(message.stopReason).toBe("length");
		expect(message.rawStopReason).toBe("length");
	});

	it("a body that ends with no finish_reason is an error that keeps the content", async () => {
		const message = await replay(chunk({ content: "partial answer" }));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain("ended before the provider's final event");
		expect(message.content).toEqual([{ type: "text", text: "partial answer" }]);
	});

	it("a body that ends with neither a finish_reason nor [DONE] names both in its error", async () => {
		const message = await replay(chunk({ content: "partial" }));
		expect(message.errorMessage).toBe("The stream ended before the provider's final event (neither a finish_reason nor data: [DONE] was received).");
		expect(message.rawStopReason).toBeUndefined();
	});

	it("[DONE] with no finish_reason before it ends the reply: stop (Snowflake Cortex, hand-written servers)", async () => {
		const message = await replay(chunk({ content: "Hello" }) + chunk({ content: " there" }) + DONE);
		expect(message.stopReason).toBe("stop");
		expect(message.errorMessage).toBeUndefined();
		expect(message.rawStopReason).toBeUndefined();
		expect(message.content).toEqual([{ type: "text", text: "Hello there" }]);
	});

	it("[DONE] with no finish_reason after tool calls is toolUse", async () => {
		const message = await replay(chunk(toolDelta(0, { id: "call_1", name: "f", arguments: '{"a":1}' })) + DONE);
		expect(message.stopReason).toBe("toolUse");
		expect(message.content).toEqual([{ type: "toolCall", id: "call_1", name: "f", arguments: { a: 1 } }]);
	});

	it("nothing after [DONE] is read", async () => {
		const message = await replay(chunk({ content: "A" }) + chunk({}, "stop") + DONE + chunk({ content: "B" }) + "data: {broken\n\n");
		expect(message.stopReason).toBe("stop");
		expect(message.content).toEqual([{ type: "text", text: "A" }]);
	});
});

describe("stop reasons", () => {
	it("stop after tool calls is toolUse (Ollama, older vLLM)", async () => {
		const message = await replay(chunk(toolDelta(0, { id: "call_1", name: "f", arguments: "{}" })) + chunk({}, "stop") + DONE);
		expect(message.stopReason).toBe("toolUse");
		expect(message.rawStopReason).toBe("stop");
	});

	it("an unknown finish_reason is stop, and its raw value is kept", async () => {
		const message = await replay(chunk({ content: "x" }) + chunk({}, "eos") + DONE);
		expect(message.stopReason).toBe("stop");
		expect(message.rawStopReason).toBe("eos");
	});

	it("content_filter is an error that keeps the text", async () => {
		const message = await replay(chunk({ content: "Once upon" }) + chunk({}, "content_filter") + DONE);
		expect(message.stopReason).toBe("error");
		expect(message.rawStopReason).toBe("content_filter");
		expect(message.errorMessage).toContain("content filter");
		expect(message.content).toEqual([{ type: "text", text: "Once upon" }]);
	});
});

describe("content", () => {
	it("delta.refusal is visible text", async () => {
		const message = await replay(chunk({ content: null, refusal: "I can't" }) + chunk({ refusal: " help." }) + chunk({}, "stop") + DONE);
		expect(message.content).toEqual([{ type: "text", text: "I can't help." }]);
	});

	it("reasoning and text alternate as separate blocks in wire order (reasoning_content, reasoning)", async () => {
		const message = await replay(
			chunk({ reasoning_content: "think 1" }) + chunk({ content: "say 1" }) + chunk({ reasoning: "think 2" }) + chunk({ content: "say 2" }) + chunk({}, "stop") + DONE,
		);
		expect(message.content).toEqual([
			{ type: "thinking", thinking: "think 1" },
			{ type: "text", text: "say 1" },
			{ type: "thinking", thinking: "think 2" },
			{ type: "text", text: "say 2" },
		]);
	});

	it("reasoning sent under both names in one delta is read once", async () => {
		const message = await replay(chunk({ reasoning_content: "same", reasoning: "same" }) + chunk({ reasoning_content: "", reasoning: " more" }) + chunk({}, "stop") + DONE);
		expect(message.content).toEqual([{ type: "thinking", thinking: "same more" }]);
	});

	it("only choice 0 is read when a server sends several", async () => {
		const both = data({ id: "x", choices: [{ index: 1, delta: { content: "other" } }, { index: 0, delta: { content: "mine" } }] });
		const message = await replay(both + chunk({}, "stop") + DONE);
		expect(message.content).toEqual([{ type: "text", text: "mine" }]);
	});

	it("the first non-empty id is the responseId (Azure's first chunk has an empty id)", async () => {
		const message = await replay(data({ id: "", choices: [], prompt_filter_results: [] }) + chunk({ content: "x" }) + chunk({}, "stop") + DONE);
		expect(message.responseId).toBe("chatcmpl-test");
	});
});

describe("tool calls keyed by tool_calls[].index", () => {
	it("interleaved continuations carrying only an index, with text between, go to the right call", async () => {
		const message = await replay(
			chunk(toolDelta(0, { id: "call_a", name: "first", arguments: '{"x":' })) +
				chunk(toolDelta(1, { id: "call_b", name: "second", arguments: '{"y":' })) +
				chunk(toolDelta(0, { arguments: "1}" })) +
				chunk({ content: "between" }) +
				chunk(toolDelta(1, { arguments: "2}" })) +
				chunk({}, "tool_calls") +
				DONE,
		);
		expect(message.content).toEqual([
			{ type: "toolCall", id: "call_a", name: "first", arguments: { x: 1 } },
			{ type: "toolCall", id: "call_b", name: "second", arguments: { y: 2 } },
			{ type: "text", text: "between" },
		]);
		expect(message.stopReason).toBe("toolUse");
	});

	it("wire indexes that do not start at 0 or skip values are still separate calls", async () => {
		const message = await replay(
			chunk(toolDelta(3, { id: "call_a", name: "f", arguments: "{}" })) + chunk(toolDelta(7, { id: "call_b", name: "g", arguments: "{}" })) + chunk({}, "tool_calls") + DONE,
		);
		expect(message.content.map((block) => (block.type === "toolCall" ? block.id : block.type))).toEqual(["call_a", "call_b"]);
	});

	it("calls without index (Mistral) are keyed by id, continuations without id join the last call", async () => {
		const message = await replay(
			chunk(toolDelta(undefined, { id: "abcDEF123", name: "f", arguments: '{"a"' })) +
				chunk(toolDelta(undefined, { arguments: ":1}" })) +
				chunk(toolDelta(undefined, { id: "xyzXYZ789", name: "g", arguments: "{}" })) +
				chunk({}, "tool_calls") +
				DONE,
		);
		expect(message.content).toEqual([
			{ type: "toolCall", id: "abcDEF123", name: "f", arguments: { a: 1 } },
			{ type: "toolCall", id: "xyzXYZ789", name: "g", arguments: {} },
		]);
	});

	it("a call whose first chunk has no id gets a generated one, replaced when the wire sends one", async () => {
		const message = await replay(
			chunk(toolDelta(0, { name: "f", arguments: "" })) + chunk(toolDelta(0, { id: "call_late", arguments: "{}" })) + chunk(toolDelta(1, { name: "g", arguments: "{}" })) + chunk({}, "tool_calls") + DONE,
		);
		const [first, second] = message.content;
		expect(first).toEqual({ type: "toolCall", id: "call_late", name: "f", arguments: {} });
		expect(second?.type === "toolCall" && second.id).toMatch(/^call_[a-z0-9]+$/);
	});

	it("a call with no arguments at all gets {}", async () => {
		const message = await replay(chunk(toolDelta(0, { id: "call_a", name: "now" })) + chunk({}, "tool_calls") + DONE);
		expect(message.content).toEqual([{ type: "toolCall", id: "call_a", name: "now", arguments: {} }]);
	});
});

describe("errors inside a 200 stream", () => {
	it("a chunk with an error field (OpenRouter mid-stream) ends in error, keeping content", async () => {
		const message = await replay(
			chunk({ content: "Par" }) + data({ id: "gen-1", choices: [{ index: 0, delta: { content: "" }, finish_reason: "error" }], error: { code: 502, message: "Upstream provider died" } }) + DONE,
		);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain("Upstream provider died");
		expect(message.content).toEqual([{ type: "text", text: "Par" }]);
	});

	it("malformed JSON fails the message clearly, keeping content", async () => {
		const message = await replay(chunk({ content: "kept" }) + "data: {not json\n\n" + chunk({}, "stop") + DONE);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain("Malformed JSON in stream event: {not json");
		expect(message.content).toEqual([{ type: "text", text: "kept" }]);
	});
});
