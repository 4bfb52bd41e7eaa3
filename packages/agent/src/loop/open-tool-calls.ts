import type { AssistantMessage, ToolResultMessage } from "@pi/ai";
import type { ToolApprovalRecord } from "../session/session-entry.js";
import type { AgentMessage, AgentToolResult, OpenToolCall, PendingApproval } from "../types.js";

/** The text of the result given to a tool call that a crash or restart cut off. */
export const TOOL_INTERRUPTED_TEXT = "Tool call was interrupted (the agent stopped before it finished) and was not run again.";

/** Why `agent.prompt()` rejects the calls still waiting for approval. */
export const NEW_MESSAGE_REJECTION = "not approved: the user sent a new message";

/**
 * The tool calls of the transcript's last assistant message that have no result, each with what
 * a run must do with it, given the approval `records` of that message's calls (from the
 * session's entries, or kept in memory). Only a transcript that ends with that message (and maybe
 * some of its results) has open calls.
 *
 * - no record: the call needed no approval, so it was running when the process stopped:
 *   `interrupted` (a live run never leaves such a call without a result);
 * - requested, undecided: `pending`;
 * - requested and rejected: `rejected`, with the reason;
 * - requested and approved: `approved`, or `interrupted` once a `tool_approval_run` record says
 *   it started: a call runs at most once.
 *
 * This is the one place that decides both what resume gives interrupted calls and what waits
 * for a person.
 *
 * @example
 * ```ts
 * const open = openToolCalls(messages, [{ type: "tool_approval_request", toolCallId: "call_1", toolName: "rm", arguments: {} }]);
 * open[0]?.status; // "pending"
 * ```
 */
export function openToolCalls(messages: readonly AgentMessage[], records: readonly ToolApprovalRecord[] = []): OpenToolCall[] {
	const batch = lastToolBatch(messages);
	if (!batch) return [];
	const requested = new Set<string>();
	const decisions = new Map<string, { approved: boolean; reason?: string }>();
	const started = new Set<string>();
	for (const record of records) {
		if (record.type === "tool_approval_request") requested.add(record.toolCallId);
		else if (record.type === "tool_approval_decision") decisions.set(record.toolCallId, { approved: record.approved, reason: record.reason });
		else started.add(record.toolCallId);
	}
	const open: OpenToolCall[] = [];
	for (const block of batch.assistant.content) {
		if (block.type !== "toolCall" || batch.answered.has(block.id)) continue;
		batch.answered.add(block.id); // a repeated id gets one result
		const decision = decisions.get(block.id);
		if (!requested.has(block.id) || started.has(block.id)) open.push({ toolCall: block, status: "interrupted" });
		else if (!decision) open.push({ toolCall: block, status: "pending" });
		else if (decision.approved) open.push({ toolCall: block, status: "approved" });
		else open.push(decision.reason === undefined ? { toolCall: block, status: "rejected" } : { toolCall: block, status: "rejected", reason: decision.reason });
	}
	return open;
}

/** The pending calls among `open`, as `agent.state.pendingApprovals` lists them. */
export function pendingApprovalsOf(open: readonly OpenToolCall[]): PendingApproval[] {
	return open
		.filter((call) => call.status === "pending")
		.map(({ toolCall }) => ({ toolCallId: toolCall.id, toolName: toolCall.name, arguments: toolCall.arguments }));
}

/** The transcript's last assistant message, if only tool results follow it, and the ids those results answer. */
export function lastToolBatch(messages: readonly AgentMessage[]): { assistant: AssistantMessage; answered: Set<string> } | undefined {
	let index = messages.length - 1;
	const answered = new Set<string>();
	while (index >= 0 && roleOf(messages[index]) === "toolResult") {
		answered.add((messages[index] as ToolResultMessage).toolCallId);
		index--;
	}
	const last = messages[index];
	if (roleOf(last) !== "assistant") return undefined;
	return { assistant: last as AssistantMessage, answered };
}

/** The error result a rejected or interrupted call gets (an approved or pending one gets none). */
export function closedCallResult(open: OpenToolCall): AgentToolResult<Record<string, unknown>> {
	if (open.status === "rejected") {
		const text = `Tool call "${open.toolCall.name}" was rejected${open.reason ? ` (${open.reason})` : ""}.`;
		return { content: [{ type: "text", text }], details: open.reason === undefined ? { rejected: true } : { rejected: true, reason: open.reason } };
	}
	return { content: [{ type: "text", text: TOOL_INTERRUPTED_TEXT }], details: { interrupted: true } };
}

function roleOf(message: AgentMessage | undefined): unknown {
	return (message as { role?: unknown } | undefined)?.role;
}
