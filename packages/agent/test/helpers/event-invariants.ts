import type { AssistantMessage, ToolResultMessage } from "@pi/ai";
import type { AgentEvent, AgentMessage } from "../../src/index.js";

/**
 * Checks the event-order contract of one run (README, "Event sequence") and throws an Error
 * naming the first broken rule and the event index. Returns the run's final messages.
 *
 * - `agent_start` first, `agent_end` last, once each; nothing outside a turn but those two;
 * - turns do not nest; each has exactly one model reply (an assistant message) per model call,
 *   and `turn_end` carries the turn's last assistant message and its tool results;
 * - messages do not nest; `message_update` only inside an assistant message, on the same object;
 * - every tool call of a turn's reply that ran tools gets start → updates → end → its
 *   tool-result message; the result messages follow the assistant's call order;
 * - `agent_end.messages` equals the messages of all `message_end`s, in order;
 * - a call that needs approval gets one `tool_approval_request` (after the reply, outside any
 *   message) instead of its execution events, and the run's last turn ends with it waiting;
 * - a turn that finishes a batch an earlier run left open has no reply: its tool events come
 *   first, and its `turn_end` carries that batch's assistant message;
 * - a compaction is `compaction_start` then `compaction_end` (same reason and tokensBefore),
 *   inside a turn, before the turn's reply, outside any message; a turn whose reply overflowed
 *   and is retried (the next compaction names it as `overflowReply`) runs none of its tools.
 */
export function assertRunInvariants(events: readonly AgentEvent[]): AgentMessage[] {
	const fail = (index: number, rule: string): never => {
		const around = events
			.slice(Math.max(0, index - 3), index + 2)
			.map((event) => event.type)
			.join(", ");
		throw new Error(`event ${index} (${events[index]?.type}): ${rule} [… ${around} …]`);
	};
	if (events.length < 2) fail(0, "a run has at least agent_start and agent_end");
	if (events[0]?.type !== "agent_start") fail(0, "agent_start comes first");
	const last = events[events.length - 1] as AgentEvent;
	if (last.type !== "agent_end") fail(events.length - 1, "agent_end comes last");

	const ended: AgentMessage[] = [];
	let inTurn = false;
	let open: AgentMessage | undefined;
	let turnAssistant: AssistantMessage | undefined;
	let turnResults: ToolResultMessage[] = [];
	/** Tool calls of the turn's reply waiting for their events, by id. */
	const toolState = new Map<string, "announced" | "awaiting" | "started" | "ended" | "delivered">();
	/** The current turn finishes an open batch: tool events before any reply. */
	let resumedTurn = false;
	let expectedCallOrder: string[] = [];
	let compacting: { reason: string; tokensBefore: number } | undefined;
	/** Replies retried after an overflow: their tool calls never run. */
	const retried = new Set<AgentMessage>();
	for (const event of events) if (event.type === "compaction_end" && event.overflowReply) retried.add(event.overflowReply);

	events.forEach((event, index) => {
		if (index > 0 && event.type === "agent_start") fail(index, "agent_start only once");
		if (index < events.length - 1 && event.type === "agent_end") fail(index, "agent_end only once, last");
		if (event.type === "agent_start" || event.type === "agent_end") {
			if (inTurn && event.type === "agent_end") fail(index, "agent_end after the last turn_end");
			return;
		}
		if (event.type === "compaction_start" || event.type === "compaction_end") {
			if (!inTurn) fail(index, "a compaction happens inside a turn");
			if (open) fail(index, "a compaction happens between messages");
			if (turnAssistant) fail(index, "a compaction comes before the turn's reply");
			if (event.type === "compaction_start") {
				if (compacting) fail(index, "compactions do not nest");
				compacting = { reason: event.reason, tokensBefore: event.tokensBefore };
			} else {
				if (!compacting) fail(index, "compaction_end follows its compaction_start");
				if (compacting?.reason !== event.reason || compacting?.tokensBefore !== event.tokensBefore) fail(index, "compaction_end repeats its start's reason and tokensBefore");
				const outcomes = [event.messages !== undefined, event.aborted === true, event.errorMessage !== undefined].filter(Boolean).length;
				if (outcomes !== 1) fail(index, "compaction_end has exactly one outcome: messages, aborted or errorMessage");
				compacting = undefined;
			}
			return;
		}
		if (event.type === "turn_start") {
			if (inTurn) fail(index, "turns do not nest");
			inTurn = true;
			resumedTurn = false;
			turnAssistant = undefined;
			turnResults = [];
			toolState.clear();
			expectedCallOrder = [];
			return;
		}
		if (!inTurn) fail(index, "every event but agent_start/agent_end is inside a turn");
		switch (event.type) {
			case "turn_end": {
				if (open) fail(index, "turn_end with a message still open");
				if (compacting) fail(index, "turn_end with a compaction still open");
				if (resumedTurn && !turnAssistant) {
					if (event.message.role !== "assistant") fail(index, "a turn finishing an open batch ends with that batch's assistant message");
					const order = (event.message as AssistantMessage).content.flatMap((block) => (block.type === "toolCall" ? [block.id] : []));
					const positions = turnResults.map((result) => order.indexOf(result.toolCallId));
					if (positions.some((position, i) => position < 0 || (i > 0 && position <= (positions[i - 1] as number)))) {
						fail(index, "an open batch's results are calls of its assistant message, in call order");
					}
				} else {
					if (!turnAssistant) fail(index, "a turn has an assistant reply");
					if (event.message !== turnAssistant) fail(index, "turn_end.message is the turn's last assistant message");
				}
				if (event.toolResults.length !== turnResults.length || event.toolResults.some((r, i) => r !== turnResults[i])) {
					fail(index, "turn_end.toolResults are the turn's tool-result messages");
				}
				for (const [id, state] of toolState) {
					if (state === "awaiting") {
						if (index !== events.length - 2) fail(index, `tool call ${id} waits for approval, so the run ends after this turn`);
						continue;
					}
					if (state !== "delivered" && state !== "announced") fail(index, `tool call ${id} got no result message`);
					if (state === "announced" && turnAssistant?.stopReason === "toolUse" && !retried.has(turnAssistant)) fail(index, `tool call ${id} of a toolUse reply never ran`);
					if (state !== "announced" && turnAssistant && retried.has(turnAssistant)) fail(index, `tool call ${id} of a retried reply ran`);
				}
				inTurn = false;
				return;
			}
			case "message_start":
				if (open) fail(index, "messages do not nest");
				open = event.message;
				if (event.message.role === "toolResult") {
					const id = event.message.toolCallId;
					if (toolState.get(id) !== "ended") fail(index, `result message of ${id} follows its tool_execution_end`);
					// A turn finishing an open batch checks the order at its turn_end, where its assistant message is named.
					const finishesOpenBatch = resumedTurn && !turnAssistant;
					if (!finishesOpenBatch && expectedCallOrder.filter((call) => toolState.get(call) !== "awaiting")[turnResults.length] !== id) {
						fail(index, "tool-result messages follow the call order");
					}
				}
				return;
			case "message_update":
				if (!open || open.role !== "assistant") fail(index, "message_update only inside an assistant message");
				if (event.message !== open) fail(index, "message_update carries the open message");
				return;
			case "message_end": {
				if (!open) fail(index, "message_end needs a message_start");
				const message = event.message;
				if (message.role !== open?.role) fail(index, "message_end ends the open message");
				open = undefined;
				ended.push(message);
				if (message.role === "assistant") {
					if (message.stopReason === "pending") fail(index, "a final message is never pending");
					if ((message.stopReason === "error" || message.stopReason === "aborted") && !message.errorMessage) {
						fail(index, "an error or aborted message has an errorMessage");
					}
					turnAssistant = message;
					toolState.clear();
					expectedCallOrder = message.content.flatMap((block) => (block.type === "toolCall" ? [block.id] : []));
					for (const id of expectedCallOrder) toolState.set(id, "announced");
				} else if (message.role === "toolResult") {
					toolState.set(message.toolCallId, "delivered");
					turnResults.push(message);
				}
				return;
			}
			case "tool_approval_request":
				if (open) fail(index, "approval requests come between messages");
				if (toolState.get(event.toolCallId) !== "announced") fail(index, `tool_approval_request of a call of the reply, once, before it runs (${event.toolCallId})`);
				toolState.set(event.toolCallId, "awaiting");
				return;
			case "tool_execution_start":
				if (open) fail(index, "tools run between messages");
				// Tool events before any reply in a turn: the turn finishes a batch an earlier run left open.
				if (!turnAssistant && !toolState.has(event.toolCallId)) {
					resumedTurn = true;
					toolState.set(event.toolCallId, "announced");
				}
				if (toolState.get(event.toolCallId) !== "announced") fail(index, `tool_execution_start of a call of the reply, once (${event.toolCallId})`);
				toolState.set(event.toolCallId, "started");
				return;
			case "tool_execution_update":
				if (toolState.get(event.toolCallId) !== "started") fail(index, "tool_execution_update between start and end");
				return;
			case "tool_execution_end":
				if (toolState.get(event.toolCallId) !== "started") fail(index, "tool_execution_end after its start, once");
				toolState.set(event.toolCallId, "ended");
				return;
		}
	});
	if (last.type === "agent_end") {
		const reported = last.messages;
		if (reported.length !== ended.length || reported.some((message, i) => message !== ended[i])) {
			fail(events.length - 1, "agent_end.messages are the run's message_end messages, in order");
		}
	}
	return ended;
}

/** The event types, for compact assertions. */
export function types(events: readonly AgentEvent[]): string[] {
	return events.map((event) => event.type);
}
