import type { AssistantMessage, SimpleStreamOptions, ToolResultMessage } from "@pi/ai";
import { type AgentEventSink, RunEmitter } from "./run-emitter.js";
import type { AgentContext, AgentLoopConfig, AgentMessage, CompactionReason, StreamFn } from "../types.js";
import type { ToolBatch } from "./tool-batch.js";

/** The model reply being streamed: what a failing run must end and abort. */
export interface ReplyInFlight {
	/** Aborts this reply only: the run's signal, an interrupt or a failure. */
	controller: AbortController;
	/** The live partial message, once the stream produced one. */
	partial: AssistantMessage | undefined;
	/** `message_start` was emitted for `partial`. */
	started: boolean;
}

/**
 * The state of one run of the loop, shared by its phases: the loop's own copy of the context,
 * the messages the run added, the event emitter, and what is in flight (a reply, a tool batch).
 */
export class LoopRun {
	readonly context: AgentContext;
	/** The messages this run added, in order; `agent_end` carries them. */
	readonly newMessages: AgentMessage[] = [];
	readonly events: RunEmitter;
	/** The options passed to every model call: the config without the loop's own fields. */
	readonly streamOptions: SimpleStreamOptions;
	readonly signal: AbortSignal | undefined;
	/** Turns started so far. */
	turns = 0;
	/** The latest assistant message of the current turn. */
	turnMessage: AssistantMessage | undefined;
	/** The tool results of the current turn. */
	turnToolResults: ToolResultMessage[] = [];
	reply: ReplyInFlight | undefined;
	batch: ToolBatch | undefined;
	/**
	 * Messages taken from the prompts or a queue and not yet delivered. A failing run delivers
	 * them before it ends, so that nothing taken from a queue is lost.
	 */
	pending: AgentMessage[] = [];
	/** The compaction between its `compaction_start` and `compaction_end`, if any. */
	compacting: { reason: CompactionReason; tokensBefore: number } | undefined;

	constructor(
		context: AgentContext,
		readonly config: AgentLoopConfig,
		sink: AgentEventSink,
		signal: AbortSignal | undefined,
		readonly streamFn: StreamFn,
	) {
		// One copy per run: the loop appends to its own transcript, never to the caller's.
		this.context = { systemPrompt: context.systemPrompt, messages: context.messages.slice(), tools: context.tools };
		this.events = new RunEmitter(sink);
		this.signal = signal ?? config.signal;
		const {
			model: _model,
			convertToLlm: _convertToLlm,
			transformContext: _transformContext,
			getApiKey: _getApiKey,
			shouldStopAfterTurn: _shouldStopAfterTurn,
			getSteeringMessages: _getSteeringMessages,
			getFollowUpMessages: _getFollowUpMessages,
			toolExecution: _toolExecution,
			beforeToolCall: _beforeToolCall,
			afterToolCall: _afterToolCall,
			maxTurns: _maxTurns,
			onReplyStart: _onReplyStart,
			streamDeferred: _streamDeferred,
			compaction: _compaction,
			openToolCalls: _openToolCalls,
			signal: _signal,
			...streamOptions
		} = config;
		this.streamOptions = streamOptions;
	}

	get aborted(): boolean {
		return this.signal?.aborted === true;
	}

	/** Appends a message to the run's transcript and to its new messages. */
	append(message: AgentMessage): void {
		this.context.messages.push(message);
		this.newMessages.push(message);
	}

	/**
	 * Puts `message` where `placeholder` is in the run's transcript (the last occurrence), and
	 * adds it to the new messages: a redeemed deferred reply. Appends when the placeholder is gone.
	 */
	replace(placeholder: AgentMessage, message: AgentMessage): void {
		const index = this.context.messages.lastIndexOf(placeholder);
		if (index < 0) this.context.messages.push(message);
		else this.context.messages[index] = message;
		this.newMessages.push(message);
	}

	/** Delivers the `pending` messages, in order, each leaving `pending` as it is delivered. */
	async deliverPending(): Promise<void> {
		while (this.pending.length > 0) await this.deliver(this.pending.shift() as AgentMessage);
	}

	/** Appends `message` and emits its `message_start` and `message_end`. */
	async deliver(message: AgentMessage): Promise<void> {
		this.append(message);
		await this.events.emit({ type: "message_start", message });
		await this.events.emit({ type: "message_end", message });
	}
}
