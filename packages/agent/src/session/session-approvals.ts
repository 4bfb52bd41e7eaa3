/**
 * Approving and rejecting tool calls on a session, without a live `Agent`: what a web request
 * handler does while no agent runs (see docs/approvals.md). The pending calls are derived from
 * the session's entries exactly as an `Agent` on the session derives them.
 */
import { openToolCalls, pendingApprovalsOf } from "../loop/open-tool-calls.js";
import type { AgentMessage, OpenToolCall, PendingApproval } from "../types.js";
import type { Session } from "./session.js";
import type { ToolApprovalRecord } from "./session-entry.js";

/**
 * A decision on a tool call that is not pending: `kind` says why (`not-pending`: unknown, or not
 * waiting for approval; `approved`/`rejected`: already decided). A web handler answers 404 or 409.
 */
export class ToolApprovalError extends Error {
	override readonly name = "ToolApprovalError";

	constructor(
		readonly toolCallId: string,
		readonly kind: "not-pending" | "approved" | "rejected",
		message: string,
	) {
		super(message);
	}
}

/** Options of {@link approveToolCall} and {@link rejectToolCall}. */
export interface ToolDecisionOptions {
	/** Why, in the person's words. A rejection's reason is part of the error result the model reads. */
	reason?: string;
}

/**
 * The tool calls that wait for approval at the session's leaf, in the assistant's order; empty
 * when nothing waits. Equals `agent.state.pendingApprovals` of an agent on this session.
 *
 * @example
 * ```ts
 * const session = await openSessionFile("chats/7.jsonl");
 * for (const call of pendingApprovals(session)) console.log(call.toolName, call.arguments);
 * ```
 */
export function pendingApprovals(session: Session): PendingApproval[] {
	const tail = toolBatchTail(session, session.leafId);
	return pendingApprovalsOf(openToolCalls(tail.messages, tail.records));
}

/**
 * Records that a person approved the pending call `toolCallId` (a `tool_approval_decision`
 * entry at the leaf), resolving once it is stored. The next `agent.continue()` on the session,
 * in any process, runs the call. Rejects with a {@link ToolApprovalError} naming the id when no
 * call with it is pending (unknown, or already decided).
 *
 * @example
 * ```ts
 * await approveToolCall(session, "call_1");
 * await new Agent({ session, initialState: { model, tools } }).continue();
 * ```
 */
export async function approveToolCall(session: Session, toolCallId: string, options: ToolDecisionOptions = {}): Promise<void> {
	await decide(session, toolCallId, true, options.reason);
}

/**
 * Records that a person rejected the pending call `toolCallId`, like {@link approveToolCall}.
 * The next `agent.continue()` gives the call an error result that says it was rejected, with
 * `reason`, and the model goes on.
 */
export async function rejectToolCall(session: Session, toolCallId: string, options: ToolDecisionOptions = {}): Promise<void> {
	await decide(session, toolCallId, false, options.reason);
}

async function decide(session: Session, toolCallId: string, approved: boolean, reason: string | undefined): Promise<void> {
	const tail = toolBatchTail(session, session.leafId);
	const record = decisionRecord(openToolCalls(tail.messages, tail.records), toolCallId, approved, reason);
	await session.append([record]);
}

/**
 * The decision record for `toolCallId` among `open`. Throws a {@link ToolApprovalError} naming
 * the id when it is not pending: unknown, already decided, or not waiting for approval at all.
 */
export function decisionRecord(open: readonly OpenToolCall[], toolCallId: string, approved: boolean, reason: string | undefined): ToolApprovalRecord {
	if (typeof toolCallId !== "string") throw new TypeError(`a tool call id must be a string, got ${typeof toolCallId}`);
	if (reason !== undefined && typeof reason !== "string") throw new TypeError(`the reason for tool call ${toolCallId} must be a string`);
	const call = open.find((candidate) => candidate.toolCall.id === toolCallId);
	if (!call || call.status !== "pending") {
		const kind = call?.status === "approved" || call?.status === "rejected" ? call.status : "not-pending";
		const state = kind === "not-pending" ? "is not waiting for approval" : `was already ${kind}`;
		const pending = open.filter((candidate) => candidate.status === "pending").map((candidate) => candidate.toolCall.id);
		throw new ToolApprovalError(toolCallId, kind, `tool call ${JSON.stringify(toolCallId)} ${state} (pending: ${pending.length > 0 ? pending.join(", ") : "none"})`);
	}
	return reason === undefined ? { type: "tool_approval_decision", toolCallId, approved } : { type: "tool_approval_decision", toolCallId, approved, reason };
}

/**
 * The end of the path to `entryId`: the last assistant message with the tool results after it,
 * and the approval records after it. Walks back only to that assistant message's entry.
 */
export function toolBatchTail(session: Session, entryId: string | null): { messages: AgentMessage[]; records: ToolApprovalRecord[] } {
	const messages: AgentMessage[] = [];
	const records: ToolApprovalRecord[] = [];
	for (let id = entryId; id !== null; ) {
		const entry = session.getEntry(id);
		if (!entry) break;
		if (entry.type === "tool_approval_request" || entry.type === "tool_approval_decision" || entry.type === "tool_approval_run") {
			const { id: _id, parentId: _parentId, timestamp: _timestamp, ...record } = entry;
			records.push(record as ToolApprovalRecord);
		} else if (entry.type === "message") {
			messages.push(entry.message);
			if (entry.message.role !== "toolResult") break;
		}
		id = entry.parentId;
	}
	return { messages: messages.reverse(), records: records.reverse() };
}
