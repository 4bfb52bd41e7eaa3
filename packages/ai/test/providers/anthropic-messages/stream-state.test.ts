import { describe, expect, it } from "vitest";
import { AssistantMessageBuilder } from "../../../src/assistant-message-builder.js";
import { AnthropicStreamState } from "../../../src/providers/anthropic-messages/anthropic-stream-state.js";
import type { AnthropicStreamEvent } from "../../../src/providers/anthropic-messages/wire-types.js";
import { assertEventProtocol, collectEvents } from "../../../src/testing/index.js";
import { anthropicModel } from "./helpers.js";

/** The state machine on hand-made event sequences: cases no capture covers. */
async function feed(events: AnthropicStreamEvent[]) {
	const builder = new AssistantMessageBuilder(anthropicModel());
	const state = new AnthropicStreamState(builder);
	for (const event of events) state.handle(event);
	if (!builder.isFinished) builder.fail(new Error("no message_stop"));
	const collected = await collectEvents(builder.stream);
	return { ...assertEventProtocol(collected), events: collected.events };
}

const start: AnthropicStreamEvent = { type: "message_start", message: { id: "msg_x", usage: { input_tokens: 10, output_tokens: 1 } } };
const stop = (reason: string | null, extra: Partial<AnthropicStreamEvent> = {}): AnthropicStreamEvent[] => [
	{ type: "message_delta", delta: { type: "message_delta", stop_reason: reason }, ...extra },
	{ type: "message_stop" },
];
const textBlock = (index: number, text: string): AnthropicStreamEvent[] => [
	{ type: "content_block_start", index, content_block: { type: "text", text: "" } },
	{ type: "content_block_delta", index, delta: { type: "text_delta", text } },
	{ type: "content_block_stop", index },
];
const json = (index: number, partial_json: string): AnthropicStreamEvent => ({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json } });

describe("AnthropicStreamState", () => {
	it("keys parallel tool calls by the wire index, whatever the order of their deltas", async () => {
		const { message } = await feed([
			start,
			{ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
			{ type: "content_block_start", index: 1, content_block: { type: "tool_use", id: "toolu_a", name: "f", input: {} } },
			{ type: "content_block_start", index: 2, content_block: { type: "tool_use", id: "toolu_b", name: "g", input: {} } },
			json(2, '{"b":'),
			json(1, '{"a":'),
			{ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "mixed " } },
			json(1, "1}"),
			{ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "in" } },
			json(2, "2}"),
			{ type: "content_block_stop", index: 2 },
			{ type: "content_block_stop", index: 0 },
			{ type: "content_block_stop", index: 1 },
			...stop("tool_use"),
		]);
		expect(message.content).toEqual([
			{ type: "text", text: "mixed in" },
			{ type: "toolCall", id: "toolu_a", name: "f", arguments: { a: 1 } },
			{ type: "toolCall", id: "toolu_b", name: "g", arguments: { b: 2 } },
		]);
		expect(message.stopReason).toBe("toolUse");
	});

	it("accepts tool input that arrives whole in content_block_start, ignoring later fragments", async () => {
		const { message, events } = await feed([
			start,
			{ type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_w", name: "f", input: { path: "a", n: [1, 2] } } },
			json(0, '{"ignored":true}'),
			{ type: "content_block_stop", index: 0 },
			...stop("tool_use"),
		]);
		expect(message.content).toEqual([{ type: "toolCall", id: "toolu_w", name: "f", arguments: { path: "a", n: [1, 2] } }]);
		expect(events.filter((event) => event.type === "toolcall_delta")).toHaveLength(1);
	});

	it("gives a tool call with no input fragments empty arguments", async () => {
		const { message } = await feed([
			start,
			{ type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_e", name: "f", input: {} } },
			json(0, ""),
			{ type: "content_block_stop", index: 0 },
			...stop("tool_use"),
		]);
		expect(message.content).toEqual([{ type: "toolCall", id: "toolu_e", name: "f", arguments: {} }]);
	});

	it("keeps server-side blocks out of the text, whole and in order, on the next text block's signature", async () => {
		const { message } = await feed([
			start,
			...textBlock(0, "Searching."),
			{ type: "content_block_start", index: 1, content_block: { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: {} } },
			json(1, '{"query":"x"}'),
			{ type: "content_block_stop", index: 1 },
			{ type: "content_block_start", index: 2, content_block: { type: "web_search_tool_result" } },
			{ type: "content_block_delta", index: 2, delta: { type: "text_delta", text: "never shown" } },
			{ type: "content_block_stop", index: 2 },
			{ type: "content_block_start", index: 3, content_block: { type: "mcp_tool_use", id: "mcptoolu_1", name: "m", input: { a: 1 } } },
			{ type: "content_block_stop", index: 3 },
			...textBlock(4, "Found it."),
			...stop("end_turn", { usage: { output_tokens: 9, server_tool_use: { web_search_requests: 1 } } as AnthropicStreamEvent["usage"] }),
		]);
		expect(message.content).toEqual([
			{ type: "text", text: "Searching." },
			{
				type: "text",
				text: "Found it.",
				textSignature: JSON.stringify({
					piAnthropicBlocks: 1,
					before: [
						{ type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "x" } },
						{ type: "web_search_tool_result" },
						{ type: "mcp_tool_use", id: "mcptoolu_1", name: "m", input: { a: 1 } },
					],
					after: [],
				}),
			},
		]);
		expect(message.usage.output).toBe(9);
	});

	it("ignores ping, unknown events, citations_delta, unknown delta types, mismatched deltas and unknown indexes", async () => {
		const { message } = await feed([
			start,
			{ type: "ping" },
			{ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
			{ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Cited" } },
			{ type: "content_block_delta", index: 0, delta: { type: "citations_delta" } },
			{ type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "wrong block" } },
			{ type: "content_block_delta", index: 0, delta: { type: "future_delta" } },
			{ type: "content_block_delta", index: 7, delta: { type: "text_delta", text: "no such block" } },
			{ type: "something_new" },
			{ type: "content_block_stop", index: 0 },
			{ type: "content_block_stop", index: 9 },
			...stop("end_turn"),
		]);
		expect(message.content).toEqual([{ type: "text", text: "Cited" }]);
		expect(message.stopReason).toBe("stop");
	});

	it("takes text or thinking that content_block_start already carries", async () => {
		const { message } = await feed([
			start,
			{ type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "Pre", signature: "sig-start" } },
			{ type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "-thought" } },
			{ type: "content_block_stop", index: 0 },
			{ type: "content_block_start", index: 1, content_block: { type: "text", text: "Pre" } },
			{ type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "-text" } },
			{ type: "content_block_stop", index: 1 },
			{ type: "content_block_start", index: 2, content_block: { type: "redacted_thinking" } },
			{ type: "content_block_stop", index: 2 },
			...stop("end_turn"),
		]);
		expect(message.content).toEqual([
			{ type: "thinking", thinking: "Pre-thought", thinkingSignature: "sig-start" },
			{ type: "text", text: "Pre-text" },
			{ type: "thinking", thinking: "", thinkingSignature: "", redacted: true },
		]);
	});

	it("lets message_delta usage fields win over message_start's, keeping fields it lacks or sends as null", async () => {
		const { message } = await feed([
			{ type: "message_start", message: { id: "msg_u", usage: { input_tokens: 100, output_tokens: 1, cache_read_input_tokens: 50, cache_creation_input_tokens: 7 } } },
			...stop("end_turn", { usage: { output_tokens: 30, cache_read_input_tokens: null, input_tokens: 120 } }),
		]);
		expect(message.usage).toMatchObject({ input: 120, output: 30, cacheRead: 50, cacheWrite: 7, totalTokens: 207 });
	});

	it("counts missing usage as zero", async () => {
		const { message } = await feed([{ type: "message_start", message: {} }, ...stop("end_turn")]);
		expect(message.usage).toMatchObject({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 });
		expect(message.responseId).toBeUndefined();
	});

	it.each([
		["stop_sequence", "stop"],
		["pause_turn", "stop"],
		["model_context_window_exceeded", "length"],
		["a_reason_from_the_future", "stop"],
	] as const)("maps stop_reason %s to %s, keeping the raw value", async (raw, reason) => {
		const { message } = await feed([start, ...textBlock(0, "x"), ...stop(raw)]);
		expect(message.stopReason).toBe(reason);
		expect(message.rawStopReason).toBe(raw);
	});

	it("a refusal without stop_details still explains itself", async () => {
		const { message } = await feed([start, ...stop("refusal")]);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe("The model refused to answer (stop_reason: refusal).");
	});

	it("ignores events after message_stop", async () => {
		const builder = new AssistantMessageBuilder(anthropicModel());
		const state = new AnthropicStreamState(builder);
		for (const event of [start, ...textBlock(0, "done"), ...stop("end_turn")]) state.handle(event);
		expect(state.isFinished).toBe(true);
		state.handle({ type: "content_block_start", index: 1, content_block: { type: "text", text: "late" } });
		state.handle({ type: "error", error: { type: "api_error", message: "late" } });
		expect(builder.message.content).toEqual([{ type: "text", text: "done" }]);
		expect(builder.message.stopReason).toBe("stop");
	});
});
