import type { Model } from "@pi/ai";
import { INTERRUPTED_TEXT } from "../loop/assistant-messages.js";
import type { AgentEvent, AgentMessage, AgentState, AgentTool, PendingApproval, ThinkingLevel } from "../types.js";

/**
 * The mutable store behind `Agent.state`. Events update it before listeners run, so a listener
 * sees the state the event describes. Messages are appended one by one: a long session never
 * copies its transcript per event (a compaction replaces it once).
 */
export class AgentStateStore implements AgentState {
	systemPrompt: string;
	model: Model;
	thinkingLevel: ThinkingLevel;
	isStreaming = false;
	streamingMessage: AgentMessage | undefined;
	readonly pendingToolCalls = new Set<string>();
	errorMessage: string | undefined;
	/** Derives the pending approvals of a transcript; the `Agent` sets it (its records live in its session or in memory). */
	approvalsOf: (messages: readonly AgentMessage[]) => readonly PendingApproval[] = () => [];
	private toolList: AgentTool<any>[];
	private messageList: AgentMessage[];

	constructor(initial: Partial<Pick<AgentState, "systemPrompt" | "model" | "thinkingLevel" | "tools" | "messages">> = {}, defaultModel: Model) {
		this.systemPrompt = initial.systemPrompt ?? "";
		this.model = initial.model ?? defaultModel;
		this.thinkingLevel = initial.thinkingLevel ?? "off";
		this.toolList = initial.tools ? initial.tools.slice() : [];
		this.messageList = initial.messages ? initial.messages.slice() : [];
	}

	get tools(): AgentTool<any>[] {
		return this.toolList;
	}

	set tools(tools: AgentTool<any>[]) {
		this.toolList = tools.slice();
	}

	/** Derived on each read from the transcript and the approval records: never stale. */
	get pendingApprovals(): readonly PendingApproval[] {
		return this.approvalsOf(this.messageList);
	}

	get messages(): AgentMessage[] {
		return this.messageList;
	}

	set messages(messages: AgentMessage[]) {
		this.messageList = messages.slice();
	}

	/** A run starts: it is streaming, and the last run's error is forgotten. */
	beginRun(): void {
		this.isStreaming = true;
		this.streamingMessage = undefined;
		this.errorMessage = undefined;
		this.pendingToolCalls.clear();
	}

	/** The run and its listeners are done. */
	endRun(): void {
		this.isStreaming = false;
		this.streamingMessage = undefined;
		this.pendingToolCalls.clear();
	}

	/** Forgets everything about runs (for `reset()`); the transcript is cleared by the caller. */
	resetRuntime(): void {
		this.endRun();
		this.errorMessage = undefined;
	}

	apply(event: AgentEvent): void {
		switch (event.type) {
			case "message_start":
			case "message_update":
				if (isAssistant(event.message)) this.streamingMessage = event.message;
				break;
			case "message_end": {
				const message = event.message;
				// A redeemed deferred reply takes its placeholder's place.
				const at = event.replaces ? this.messageList.lastIndexOf(event.replaces) : -1;
				if (at >= 0) this.messageList[at] = message;
				else this.messageList.push(message);
				if (isAssistant(message)) {
					this.streamingMessage = undefined;
					const failed = message.stopReason === "error" || message.stopReason === "aborted";
					// An interrupted reply is part of normal steering, not a failure.
					if (failed && message.errorMessage !== INTERRUPTED_TEXT) this.errorMessage = message.errorMessage;
				}
				break;
			}
			case "tool_execution_start":
				this.pendingToolCalls.add(event.toolCallId);
				break;
			case "tool_execution_end":
				this.pendingToolCalls.delete(event.toolCallId);
				break;
			case "compaction_end":
				if (event.messages) {
					this.messageList = event.messages.slice();
					// The overflow was recovered from: the retry decides whether the run failed.
					if (event.overflowReply && event.overflowReply.errorMessage === this.errorMessage) this.errorMessage = undefined;
				}
				break;
			case "agent_end":
				this.streamingMessage = undefined;
				break;
		}
	}
}

function isAssistant(message: AgentMessage): message is Extract<AgentMessage, { role: "assistant" }> {
	return (message as { role?: unknown }).role === "assistant";
}
