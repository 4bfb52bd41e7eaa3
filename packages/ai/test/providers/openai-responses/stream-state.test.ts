/**
 * The Responses stream state machine on hand-made event sequences: items keyed by output_index
 * (never arrival order), text only sent whole, terminal events and their stop reasons.
 */
import { describe, expect, it } from "vitest";
import { AssistantMessageBuilder } from "../../../src/assistant-message-builder.js";
import { ResponsesStreamState } from "../../../src/providers/openai-responses/responses-stream-state.js";
import type { ResponsesStreamEvent } from "../../../src/providers/openai-responses/wire-types.js";
import { assertEventProtocol, recordEvents } from "../../../src/testing/index.js";
import { responsesModel } from "./helpers.js";

async function replay(events: ResponsesStreamEvent[], options: { background?: boolean; end?: boolean } = {}) {
	const builder = new AssistantMessageBuilder(responsesModel("http://127.0.0.1:9"));
	const state = new ResponsesStreamState(builder, responsesModel("http://127.0.0.1:9"), options);
	const recording = recordEvents(builder.stream);
	for (const event of events) state.handleData(JSON.stringify(event));
	if (options.end !== false) state.end();
	return assertEventProtocol(await recording);
}

const created: ResponsesStreamEvent = { type: "response.created", response: { id: "resp_1", status: "in_progress" } };
const completed: ResponsesStreamEvent = { type: "response.completed", response: { id: "resp_1", status: "completed", usage: { input_tokens: 10, output_tokens: 5 } } };
const fc = (outputIndex: number, n: number): ResponsesStreamEvent => ({
	type: "response.output_item.added",
	output_index: outputIndex,
	item: { type: "function_call", id: `fc_${n}`, call_id: `call_${n}`, name: `tool${n}`, arguments: "" },
});
const args = (outputIndex: number, delta: string): ResponsesStreamEvent => ({ type: "response.function_call_arguments.delta", output_index: outputIndex, delta });
const done = (outputIndex: number, item: ResponsesStreamEvent["item"]): ResponsesStreamEvent => ({ type: "response.output_item.done", output_index: outputIndex, item });

describe("ResponsesStreamState", () => {
	it("keeps interleaved parallel calls apart by output_index, with text deltas in between", async () => {
		const { message, counts } = await replay([
			created,
			fc(0, 1),
			args(0, '{"a"'),
			fc(1, 2),
			args(1, '{"b":'),
			{ type: "response.output_item.added", output_index: 2, item: { type: "message", id: "msg_1" } },
			{ type: "response.output_text.delta", output_index: 2, delta: "Hi" },
			args(0, ":1}"),
			// A continuation that names only its item id.
			{ type: "response.function_call_arguments.delta", item_id: "fc_2", delta: "2}" },
			done(1, { type: "function_call", id: "fc_2", call_id: "call_2", name: "tool2", arguments: '{"b":2}' }),
			done(0, { type: "function_call", id: "fc_1", call_id: "call_1", name: "tool1", arguments: '{"a":1}' }),
			done(2, { type: "message", id: "msg_1", content: [{ type: "output_text", text: "Hi" }] }),
			completed,
		]);
		expect(message.stopReason).toBe("toolUse");
		expect(message.content).toEqual([
			{ type: "toolCall", id: "call_1|fc_1", name: "tool1", arguments: { a: 1 } },
			{ type: "toolCall", id: "call_2|fc_2", name: "tool2", arguments: { b: 2 } },
			{ type: "text", text: "Hi", textSignature: '{"id":"msg_1"}' },
		]);
		expect(counts.toolcall_delta).toBe(4);
	});

	it("appends refusal text to the message's text block", async () => {
		const { message } = await replay([
			created,
			{ type: "response.output_item.added", output_index: 0, item: { type: "message", id: "msg_r" } },
			{ type: "response.refusal.delta", output_index: 0, delta: "I can't " },
			{ type: "response.refusal.delta", output_index: 0, delta: "help." },
			{ type: "response.refusal.done", output_index: 0, refusal: "I can't help." },
			completed,
		]);
		expect(message.content).toEqual([{ type: "text", text: "I can't help.", textSignature: '{"id":"msg_r"}' }]);
	});

	it("uses text a server sends only whole: .done events and the finished item", async () => {
		const { message } = await replay([
			created,
			{ type: "response.output_item.added", output_index: 0, item: { type: "reasoning", id: "rs_1" } },
			done(0, { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "One" }, { type: "summary_text", text: "Two" }] }),
			{ type: "response.output_item.added", output_index: 1, item: { type: "message", id: "msg_1" } },
			{ type: "response.output_text.done", output_index: 1, content_index: 0, text: "Whole" },
			done(1, { type: "message", id: "msg_1", phase: "final_answer", content: [{ type: "output_text", text: "Whole" }] }),
			{ type: "response.output_item.added", output_index: 2, item: { type: "message", id: "msg_2" } },
			done(2, { type: "message", id: "msg_2", content: [{ type: "output_text", text: "From the item" }] }),
			completed,
		]);
		expect(message.content).toEqual([
			{ type: "thinking", thinking: "One\n\nTwo", thinkingSignature: '{"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"One"},{"type":"summary_text","text":"Two"}]}' },
			// The phase arrived only with output_item.done.
			{ type: "text", text: "Whole", textSignature: '{"id":"msg_1","phase":"final_answer"}' },
			{ type: "text", text: "From the item", textSignature: '{"id":"msg_2"}' },
		]);
	});

	it("separates summary parts with a blank line, once per part change, never before the first", async () => {
		const summary = (index: number, delta: string): ResponsesStreamEvent => ({ type: "response.reasoning_summary_text.delta", output_index: 0, summary_index: index, delta });
		const { message } = await replay([
			created,
			{ type: "response.output_item.added", output_index: 0, item: { type: "reasoning", id: "rs_1" } },
			{ type: "response.reasoning_summary_part.added", output_index: 0, summary_index: 0 },
			summary(0, "**A**"),
			summary(0, " first"),
			{ type: "response.reasoning_summary_text.done", output_index: 0, summary_index: 0, text: "**A** first" },
			summary(1, "**B**"),
			summary(1, " second"),
			completed,
		]);
		expect(message.content[0]).toMatchObject({ type: "thinking", thinking: "**A** first\n\n**B** second" });
	});

	it("produces no block for server-side tools such as web search", async () => {
		const { message } = await replay([
			created,
			{ type: "response.output_item.added", output_index: 0, item: { type: "web_search_call", id: "ws_1" } },
			{ type: "response.web_search_call.searching", output_index: 0, item_id: "ws_1" },
			done(0, { type: "web_search_call", id: "ws_1" }),
			completed,
		]);
		expect(message.content).toEqual([]);
		expect(message.stopReason).toBe("stop");
	});

	it("maps response.incomplete for another reason to an error naming it", async () => {
		const { message } = await replay([created, { type: "response.incomplete", response: { id: "resp_1", status: "incomplete", incomplete_details: { reason: "content_filter" } } }]);
		expect(message.stopReason).toBe("error");
		expect(message.rawStopReason).toBe("content_filter");
		expect(message.errorMessage).toBe("The response is incomplete: content_filter.");
	});

	it("takes the message of response.failed, and of an error event with top-level fields", async () => {
		const failed = await replay([created, { type: "response.failed", response: { id: "resp_1", status: "failed", error: { code: "server_error", message: "The model crashed" } } }]);
		expect(failed.message.stopReason).toBe("error");
		expect(failed.message.rawStopReason).toBe("failed");
		expect(failed.message.errorMessage).toBe("server_error: The model crashed");
		const event = await replay([created, { type: "error", code: "rate_limit_exceeded", message: "Slow down" }]);
		expect(event.message.errorMessage).toBe("rate_limit_exceeded: Slow down");
	});

	it("ignores events after the final one, and [DONE] markers", async () => {
		const { message } = await replay([created, completed, { type: "response.output_item.added", output_index: 0, item: { type: "message", id: "late" } }]);
		expect(message.content).toEqual([]);
		expect(message.stopReason).toBe("stop");
		const builder = new AssistantMessageBuilder(responsesModel("http://127.0.0.1:9"));
		const state = new ResponsesStreamState(builder, responsesModel("http://127.0.0.1:9"));
		expect(() => state.handleData("[DONE]")).not.toThrow();
		expect(() => state.handleData("{oops")).toThrow(/^Malformed JSON in stream event: \{oops$/);
	});

	it("opens blocks for items a server never announced with output_item.added", async () => {
		const { message } = await replay([
			created,
			{ type: "response.reasoning_text.delta", output_index: 0, item_id: "rs_x", content_index: 0, delta: "Hmm." },
			{ type: "response.output_text.delta", output_index: 1, item_id: "msg_x", delta: "Answer" },
			// A finished item with no events before it at all.
			done(2, { type: "message", id: "msg_y", content: [{ type: "output_text", text: "Late" }] }),
			completed,
		]);
		expect(message.content).toEqual([
			{ type: "thinking", thinking: "Hmm." },
			{ type: "text", text: "Answer", textSignature: '{"id":"msg_x"}' },
			{ type: "text", text: "Late", textSignature: '{"id":"msg_y"}' },
		]);
	});

	it("gives a function_call without deltas its arguments from the finished item, and {} when there are none", async () => {
		const { message } = await replay([
			created,
			fc(0, 1),
			done(0, { type: "function_call", id: "fc_1", call_id: "call_1", name: "tool1", arguments: '{"x":[1,2]}' }),
			fc(1, 2),
			done(1, { type: "function_call", id: "fc_2", call_id: "call_2", name: "tool2", arguments: "" }),
			completed,
		]);
		expect(message.content).toEqual([
			{ type: "toolCall", id: "call_1|fc_1", name: "tool1", arguments: { x: [1, 2] } },
			{ type: "toolCall", id: "call_2|fc_2", name: "tool2", arguments: {} },
		]);
		expect(message.usage).toMatchObject({ input: 10, output: 5, totalTokens: 15 });
	});
});
