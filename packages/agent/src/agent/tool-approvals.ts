import type { AssistantMessage } from "@pi/ai";
import { lastToolBatch, openToolCalls, pendingApprovalsOf } from "../loop/open-tool-calls.js";
import { decisionRecord, toolBatchTail } from "../session/session-approvals.js";
import type { ToolApprovalRecord } from "../session/session-entry.js";
import type { AgentEvent, AgentMessage, OpenToolCall, PendingApproval } from "../types.js";
import type { SessionRecorder } from "./session-recorder.js";

/**
 * An agent's approval records for the calls of its transcript's last assistant message: in its
 * session when it has one (so every process derives the same state from the log), else in
 * memory. Records are written as the run's events come (a request, the start of an approved
 * call) and by `approve()`/`reject()`; what is open is always derived from them.
 */
export class ToolApprovals {
	/** Without a session: the records of one assistant message's calls. */
	private memory: { assistant: AssistantMessage; records: ToolApprovalRecord[] } | undefined;

	constructor(private readonly recorder: SessionRecorder | undefined) {}

	/** The transcript's unanswered tool calls and what a run does with each. */
	open(messages: readonly AgentMessage[]): OpenToolCall[] {
		return openToolCalls(messages, this.records(messages));
	}

	pending(messages: readonly AgentMessage[]): PendingApproval[] {
		return pendingApprovalsOf(this.open(messages));
	}

	/** Records a person's decision on a pending call; throws a `ToolApprovalError` naming the id when none is pending. */
	async decide(messages: readonly AgentMessage[], toolCallId: string, approved: boolean, reason: string | undefined): Promise<void> {
		await this.add(messages, decisionRecord(this.open(messages), toolCallId, approved, reason));
	}

	/**
	 * Records what an event means for approvals, before the run goes on: a request, or the start
	 * of an approved call (written before it runs, so that it never runs twice).
	 */
	async observe(event: AgentEvent, messages: readonly AgentMessage[]): Promise<void> {
		if (event.type === "tool_approval_request") {
			await this.add(messages, { type: "tool_approval_request", toolCallId: event.toolCallId, toolName: event.toolName, arguments: event.args as Record<string, unknown> });
		} else if (event.type === "tool_execution_start") {
			const approved = this.open(messages).some((call) => call.toolCall.id === event.toolCallId && call.status === "approved");
			if (approved) await this.add(messages, { type: "tool_approval_run", toolCallId: event.toolCallId });
		}
	}

	private records(messages: readonly AgentMessage[]): ToolApprovalRecord[] {
		if (this.recorder) return toolBatchTail(this.recorder.session, this.recorder.attachPoint(messages)).records;
		const batch = lastToolBatch(messages);
		return batch && this.memory?.assistant === batch.assistant ? this.memory.records : [];
	}

	private async add(messages: readonly AgentMessage[], record: ToolApprovalRecord): Promise<void> {
		if (this.recorder) {
			await this.recorder.appendRecords(messages, [record]);
			return;
		}
		const batch = lastToolBatch(messages);
		if (!batch) return;
		if (this.memory?.assistant !== batch.assistant) this.memory = { assistant: batch.assistant, records: [] };
		this.memory.records.push(record);
	}
}
