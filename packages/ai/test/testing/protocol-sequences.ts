import { emptyUsage } from "../../src/event-stream.js";
import type { AssistantMessage, AssistantMessageEvent, StopReason } from "../../src/types.js";

/** A message in the shape providers produce, for hand-written event sequences. */
export function makeMessage(content: AssistantMessage["content"], stopReason: StopReason, extra: Partial<AssistantMessage> = {}): AssistantMessage {
	return {
		role: "assistant",
		content,
		api: "test-api",
		provider: "test",
		model: "test-model",
		usage: emptyUsage(),
		stopReason,
		timestamp: 1,
		...extra,
	};
}

/**
 * A valid sequence that exercises every block family and interleaving:
 * #0 start, #1 thinking_start 0, #2 thinking_delta, #3 text_start 1, #4 text_delta, #5 thinking_delta,
 * #6 thinking_end 0, #7 text_delta, #8 toolcall_start 2, #9 toolcall_delta, #10 toolcall_delta,
 * #11 text_end 1, #12 toolcall_end 2, #13 done toolUse.
 * Fresh objects on every call, so a test may mutate them.
 */
export function validToolUseSequence(): AssistantMessageEvent[] {
	const final = makeMessage(
		[
			{ type: "thinking", thinking: "hmm", thinkingSignature: "sig" },
			{ type: "text", text: "Hello" },
			{ type: "toolCall", id: "call_1", name: "lookup", arguments: { city: "Paris", days: [1, 2] } },
		],
		"toolUse",
		{ rawStopReason: "tool_use" },
	);
	const partial = final; // providers share one live object; the checker must not depend on it
	return [
		{ type: "start", partial },
		{ type: "thinking_start", contentIndex: 0, partial },
		{ type: "thinking_delta", contentIndex: 0, delta: "hm", partial },
		{ type: "text_start", contentIndex: 1, partial },
		{ type: "text_delta", contentIndex: 1, delta: "Hel", partial },
		{ type: "thinking_delta", contentIndex: 0, delta: "m", partial },
		{ type: "thinking_end", contentIndex: 0, content: "hmm", partial },
		{ type: "text_delta", contentIndex: 1, delta: "lo", partial },
		{ type: "toolcall_start", contentIndex: 2, partial },
		{ type: "toolcall_delta", contentIndex: 2, delta: '{"city": "Par', partial },
		{ type: "toolcall_delta", contentIndex: 2, delta: 'is", "days": [1, 2]}', partial },
		{ type: "text_end", contentIndex: 1, content: "Hello", partial },
		{ type: "toolcall_end", contentIndex: 2, toolCall: final.content[2] as Extract<AssistantMessage["content"][number], { type: "toolCall" }>, partial },
		{ type: "done", reason: "toolUse", message: final },
	];
}

/**
 * A valid aborted sequence: the tool call is cut mid-JSON and closed with its best-effort arguments.
 * #0 start, #1 text_start 0, #2 text_delta, #3 toolcall_start 1, #4 toolcall_delta, #5 text_end,
 * #6 toolcall_end, #7 error aborted.
 */
export function validAbortedSequence(): AssistantMessageEvent[] {
	const toolCall = { type: "toolCall" as const, id: "toolu_1", name: "search", arguments: { query: "we" } };
	const final = makeMessage([{ type: "text", text: "Let me look" }, toolCall], "aborted", { errorMessage: "Request was aborted." });
	const partial = final;
	return [
		{ type: "start", partial },
		{ type: "text_start", contentIndex: 0, partial },
		{ type: "text_delta", contentIndex: 0, delta: "Let me look", partial },
		{ type: "toolcall_start", contentIndex: 1, partial },
		{ type: "toolcall_delta", contentIndex: 1, delta: '{"query": "we', partial },
		{ type: "text_end", contentIndex: 0, content: "Let me look", partial },
		{ type: "toolcall_end", contentIndex: 1, toolCall, partial },
		{ type: "error", reason: "aborted", error: final },
	];
}

/** The final message of a sequence (its terminal event's). */
export function finalOf(events: AssistantMessageEvent[]): AssistantMessage {
	const last = events[events.length - 1];
	if (last?.type === "done") return last.message;
	if (last?.type === "error") return last.error;
	throw new Error("sequence has no terminal event at the end");
}
