import { type ImageContent, type Model, streamSimple } from "@pi/ai";
import { runAgentLoop, runAgentLoopContinue } from "../loop/agent-loop.js";
import { emptyAssistantMessage } from "../loop/assistant-messages.js";
import { defaultConvertToLlm } from "../loop/default-convert-to-llm.js";
import { isRedeemable } from "../loop/redeem-deferred.js";
import { MessageQueue, type QueueMode, type SteeringMode } from "./message-queue.js";
import { type AgentOptions, pickRunOptions } from "./agent-options.js";
import { AgentStateStore } from "./agent-state-store.js";
import { explainMissingModel, NO_MODEL } from "./no-model.js";
import { promptMessages } from "./prompt-input.js";
import { errorText, RunFailure } from "../loop/run-failure.js";
import type { Session } from "../session/session.js";
import type { ToolDecisionOptions } from "../session/session-approvals.js";
import { ToolApprovals } from "./tool-approvals.js";
import { missingModelText, resumeFromSession } from "./resume-from-session.js";
import { SessionRecorder } from "./session-recorder.js";
import type { AgentEvent, AgentLoopConfig, AgentMessage, AgentRunOptions, AgentState, OpenToolCall, StreamFn } from "../types.js";

export type { AgentOptions } from "./agent-options.js";

/** A subscriber to an agent's events; a returned promise is awaited before the run goes on. */
export type AgentListener = (event: AgentEvent, signal: AbortSignal) => Promise<void> | void;

/** One run of the agent: its abort controller and the interrupt of the reply in flight. */
interface ActiveRun {
	controller: AbortController;
	interrupt: (() => void) | undefined;
}

/**
 * The {@link AgentRunOptions} as instance fields of {@link Agent} (this interface merges into the
 * class): set in the constructor, read by every run through the one key list of
 * `AgentRunOptions`. `convertToLlm` and `toolExecution` always hold a value (their defaults).
 */
export interface Agent
	extends Omit<AgentRunOptions, "convertToLlm" | "toolExecution">,
		Required<Pick<AgentRunOptions, "convertToLlm" | "toolExecution">> {}

/**
 * A stateful agent: it holds the transcript, the model and the tools, runs the agent loop over
 * them, and queues messages sent while it works. The loop itself is plain functions
 * (`runAgentLoop`); this class only keeps state and queues around them.
 *
 * - `prompt()` starts a run and resolves when it is over (after the `agent_end` listeners);
 *   a second `prompt()` while busy rejects: use `steer()` or `followUp()`.
 * - `steer()` delivers a message before the next model call; `followUp()` once the agent would
 *   stop. With `steeringMode: "interrupt"`, `steer()` also cuts the reply being generated short.
 * - Listeners are awaited in order; a listener that throws ends the run (with an `error`
 *   assistant message), but the other listeners still get every event.
 *
 * @example
 * ```ts
 * const agent = new Agent({ initialState: { model, systemPrompt: "Be brief.", tools: [clock] } });
 * agent.subscribe((event) => { if (event.type === "message_end") console.log(event.message); });
 * await agent.prompt("What time is it?");
 * ```
 */
export class Agent {
	private readonly store: AgentStateStore;
	private readonly listeners: AgentListener[] = [];
	private readonly steeringQueue: MessageQueue;
	private readonly followUpQueue: MessageQueue<QueueMode>;
	private activeRun: ActiveRun | undefined;
	/** Runs not yet settled, including ones `reset()` detached. */
	private readonly settling = new Set<Promise<void>>();
	private readonly recorder: SessionRecorder | undefined;
	/** The placeholder model of a resumed session whose model the catalog lacks. */
	private readonly missingModel: { text: string; placeholder: Model } | undefined;
	/** The approval records of the transcript's open tool calls (in the session, when there is one). */
	private readonly approvals: ToolApprovals;

	/** Streams each reply; see {@link AgentOptions.streamFn}. */
	streamFn: StreamFn;
	/** The idempotency key of the session entry of each message the agent appends; see {@link AgentOptions.idempotencyKey}. */
	idempotencyKey?: (message: AgentMessage) => string | undefined;

	constructor(options: AgentOptions = {}) {
		const session = options.session;
		if (session) {
			const resumed = resumeFromSession(session, options.initialState);
			this.store = new AgentStateStore(resumed.initial, NO_MODEL);
			this.recorder = new SessionRecorder(session, resumed.recorded);
			if (resumed.missingModel) {
				this.missingModel = { text: missingModelText(session.id, resumed.missingModel.ref), placeholder: resumed.missingModel.placeholder };
			}
		} else {
			this.store = new AgentStateStore(options.initialState, NO_MODEL);
		}
		this.approvals = new ToolApprovals(this.recorder);
		this.store.approvalsOf = (messages) => this.approvals.pending(messages);
		this.steeringQueue = new MessageQueue(options.steeringMode ?? "one-at-a-time");
		this.followUpQueue = new MessageQueue(options.followUpMode ?? "one-at-a-time");
		this.streamFn = options.streamFn ?? streamSimple;
		this.idempotencyKey = options.idempotencyKey;
		// The run options live on the instance (where the app may change them) and flow from
		// there into every run's config; the defaults are the instance's starting values.
		Object.assign(this, { convertToLlm: defaultConvertToLlm, toolExecution: "parallel", sessionId: session?.id }, pickRunOptions(options));
	}

	/**
	 * Calls `listener` with every event and the run's abort signal. Listeners run in subscription
	 * order and are awaited before the run goes on. Returns a function that unsubscribes.
	 */
	subscribe(listener: AgentListener): () => void {
		this.listeners.push(listener);
		return () => {
			const index = this.listeners.indexOf(listener);
			if (index >= 0) this.listeners.splice(index, 1);
		};
	}

	/** The session this agent persists to, if it was given one. */
	get session(): Session | undefined {
		return this.recorder?.session;
	}

	/** The agent's state. Assigning `tools` or `messages` copies the array. */
	get state(): AgentState {
		return this.store;
	}

	/** How `steer()`ed messages are delivered: `one-at-a-time` (default), `all`, or `interrupt`. */
	get steeringMode(): SteeringMode {
		return this.steeringQueue.mode;
	}

	set steeringMode(mode: SteeringMode) {
		this.steeringQueue.mode = mode;
	}

	/** How `followUp()` messages are delivered: `one-at-a-time` (default) or `all`. */
	get followUpMode(): QueueMode {
		return this.followUpQueue.mode;
	}

	set followUpMode(mode: QueueMode) {
		this.followUpQueue.mode = mode;
	}

	/**
	 * Queues a message for delivery before the next model call. In `interrupt` mode it also
	 * cuts the reply being generated short (kept as an `aborted` message) and the run goes on at
	 * once with the steering message.
	 */
	steer(message: AgentMessage): void {
		this.steeringQueue.push(message);
		if (this.steeringQueue.mode === "interrupt") this.activeRun?.interrupt?.();
	}

	/** Queues a message for when the agent would otherwise stop; it then starts another turn. */
	followUp(message: AgentMessage): void {
		this.followUpQueue.push(message);
	}

	clearSteeringQueue(): void {
		this.steeringQueue.clear();
	}

	clearFollowUpQueue(): void {
		this.followUpQueue.clear();
	}

	clearAllQueues(): void {
		this.steeringQueue.clear();
		this.followUpQueue.clear();
	}

	/** True when a steering or follow-up message is waiting. */
	hasQueuedMessages(): boolean {
		return this.steeringQueue.length > 0 || this.followUpQueue.length > 0;
	}

	/** The abort signal of the current run, if one is running. */
	get signal(): AbortSignal | undefined {
		return this.activeRun?.controller.signal;
	}

	/** Aborts the current run: the reply ends as `aborted`, running tools get aborted results. */
	abort(): void {
		this.activeRun?.controller.abort();
	}

	/** Resolves once no run is in progress and every `agent_end` listener has settled. */
	async waitForIdle(): Promise<void> {
		while (this.settling.size > 0) await Promise.all(this.settling);
	}

	/**
	 * Clears the transcript, the queues and the run state. A running run is aborted and detached:
	 * its remaining events reach neither the state nor the listeners.
	 */
	reset(): void {
		const active = this.activeRun;
		this.activeRun = undefined;
		active?.controller.abort();
		this.store.resetRuntime();
		this.store.messages = [];
		this.clearAllQueues();
	}

	/** Starts a run with a message, several messages, or a text (and images) as a user message. */
	prompt(message: AgentMessage | AgentMessage[]): Promise<void>;
	prompt(input: string, images?: ImageContent[]): Promise<void>;
	async prompt(input: string | AgentMessage | AgentMessage[], images?: ImageContent[]): Promise<void> {
		if (this.activeRun) {
			throw new Error("Agent is already processing a prompt. Use steer() or followUp() to queue messages, or wait for completion.");
		}
		const messages = promptMessages(input, images);
		// Open tool calls get their one result before the prompt: decided ones as decided, calls a
		// crash cut off as interrupted, and calls still waiting are rejected (the user moved on).
		await this.start(messages, false, false, this.approvals.open(this.store.messages));
	}

	/**
	 * Approves the pending tool call `toolCallId` (see `state.pendingApprovals`): records the
	 * decision (in the session, when there is one) and resolves once it is stored. The call runs
	 * on the next `continue()` (or before the next `prompt()`), in this or any other process.
	 * Rejects with a `ToolApprovalError` naming the id when no call with it is pending (unknown,
	 * or already decided).
	 *
	 * @example
	 * ```ts
	 * await agent.approve(agent.state.pendingApprovals[0].toolCallId);
	 * await agent.continue(); // runs the tool once, then the model goes on
	 * ```
	 */
	async approve(toolCallId: string, options: ToolDecisionOptions = {}): Promise<void> {
		await this.approvals.decide(this.store.messages, toolCallId, true, options.reason);
	}

	/**
	 * Rejects the pending tool call `toolCallId`, like {@link approve}: on the next `continue()`
	 * the call gets an error result saying it was rejected, with `reason`, and the model goes on.
	 */
	async reject(toolCallId: string, options: ToolDecisionOptions = {}): Promise<void> {
		await this.approvals.decide(this.store.messages, toolCallId, false, options.reason);
	}

	/**
	 * Runs again from the transcript as it is (to retry, or answer tool results). When the last
	 * message is an assistant message, delivers queued steering (else follow-up) messages instead;
	 * with nothing queued that rejects. A transcript that ends in a deferred reply (a message with
	 * a `deferred` handle) is redeemed: the reply streams with the usual `message_*` events, takes
	 * the placeholder's place in `state.messages`, and the run goes on (tools, more turns). An
	 * abort during the redemption ends the run `aborted`, keeps the handle and cancels nothing.
	 *
	 * Tool calls left without results are answered first (see docs/approvals.md): approved calls
	 * run, rejected ones get an error result with the reason, calls a crash cut off get an
	 * interrupted result, then the model goes on. While some call still waits for a decision,
	 * the decided ones are acted on and the run ends without a model call; when none is decided,
	 * `continue()` resolves at once and starts no run.
	 */
	async continue(): Promise<void> {
		if (this.activeRun) throw new Error("Agent is already processing. Wait for completion before continuing.");
		const messages = this.store.messages;
		const last = messages[messages.length - 1];
		if (!last) throw new Error("No messages to continue from");
		// A deferred reply (perhaps from another process, through the session) is redeemed first.
		if (isRedeemable(last)) return this.start([], true);
		// Open tool calls: approved ones run, rejected and interrupted ones (a crash cut them off) get
		// their results, then the model goes on. While a call still waits, nothing more happens.
		const open = this.approvals.open(messages);
		if (open.length > 0) {
			if (open.every((call) => call.status === "pending")) return;
			return this.start([], false, false, open);
		}
		if (last.role === "assistant") {
			const steering = this.steeringQueue.drain();
			if (steering.length > 0) return this.start(steering, false, true);
			const followUps = this.followUpQueue.drain();
			if (followUps.length > 0) return this.start(followUps, false);
			throw new Error("Cannot continue from message role: assistant");
		}
		return this.start([], true);
	}

	private async start(prompts: AgentMessage[], continuation: boolean, skipInitialSteeringPoll = false, openToolCalls: OpenToolCall[] = []): Promise<void> {
		const active: ActiveRun = { controller: new AbortController(), interrupt: undefined };
		this.activeRun = active;
		this.store.beginRun();
		const context = { systemPrompt: this.store.systemPrompt, messages: this.store.messages, tools: this.store.tools };
		const config = this.loopConfig(active, skipInitialSteeringPoll);
		if (openToolCalls.length > 0) config.openToolCalls = openToolCalls;
		const sink = (event: AgentEvent) => this.deliver(active, event);
		const signal = active.controller.signal;
		// Only the default stream function is told about a missing model; a custom one gets the
		// placeholder and decides for itself (a mock, a proxy, a router), as the reference's does.
		const streamFn = this.streamFn === streamSimple ? explainMissingModel(streamSimple) : this.streamFn;
		let running: Promise<AgentMessage[]>;
		try {
			running = continuation
				? runAgentLoopContinue(context, config, sink, signal, streamFn)
				: runAgentLoop(prompts, context, config, sink, signal, streamFn);
		} catch (error) {
			// Only a bug could get here; the agent must not stay busy forever because of it.
			running = Promise.reject(error);
		}
		const settled = running.then(
			() => this.finishRun(active),
			(error: unknown) => this.failRun(active, error),
		);
		this.settling.add(settled);
		try {
			await settled;
		} finally {
			this.settling.delete(settled);
		}
	}

	private loopConfig(active: ActiveRun, skipInitialSteeringPoll: boolean): AgentLoopConfig {
		let skipSteeringPoll = skipInitialSteeringPoll;
		const thinkingLevel = this.store.thinkingLevel;
		return {
			convertToLlm: defaultConvertToLlm,
			...pickRunOptions(this),
			model: this.store.model,
			reasoning: thinkingLevel === "off" ? undefined : thinkingLevel,
			// A detached run (after reset) must not take messages meant for the next one.
			getSteeringMessages: () => {
				if (active !== this.activeRun) return [];
				if (skipSteeringPoll) {
					skipSteeringPoll = false;
					return [];
				}
				return this.steeringQueue.drain();
			},
			getFollowUpMessages: () => (active === this.activeRun ? this.followUpQueue.drain() : []),
			onReplyStart: (interrupt) => {
				active.interrupt = interrupt;
				// Steering queued after the last poll (while messages were delivered) interrupts at once.
				if (this.steeringQueue.mode === "interrupt" && this.steeringQueue.length > 0) interrupt();
				return () => {
					if (active.interrupt === interrupt) active.interrupt = undefined;
				};
			},
		};
	}

	/** Applies an event to the state, then calls every listener in order; rethrows the first failure. */
	private async deliver(active: ActiveRun, event: AgentEvent): Promise<void> {
		if (active !== this.activeRun) return;
		this.store.apply(event);
		let failure: { error: unknown } | undefined;
		// The session first: a message is stored before any listener hears of its end, and before
		// the run goes on (the loop awaits this sink).
		try {
			if (this.recorder) await this.record(this.recorder, event);
			await this.approvals.observe(event, this.store.messages);
		} catch (error) {
			failure = { error: error instanceof RunFailure ? error : new RunFailure("session append", error) };
		}
		for (const listener of this.listeners.slice()) {
			try {
				await listener(event, active.controller.signal);
			} catch (error) {
				failure ??= { error };
			}
		}
		if (!failure) return;
		// Nothing can follow agent_end; the failure is only recorded.
		if (event.type === "agent_end") this.store.errorMessage = `event listener failed: ${errorText(failure.error)}`;
		throw failure.error;
	}

	/**
	 * What the session hears of an event: settings at the run's start, messages at their end, a
	 * `compaction` entry at a compaction's end.
	 */
	private async record(recorder: SessionRecorder, event: AgentEvent): Promise<void> {
		if (event.type === "agent_start") {
			if (this.missingModel && this.store.model === this.missingModel.placeholder) throw new RunFailure("resume", new Error(this.missingModel.text));
			const model = this.store.model === NO_MODEL ? undefined : this.store.model;
			await recorder.recordSettings(this.store.messages, { model, thinkingLevel: this.store.thinkingLevel, systemPrompt: this.store.systemPrompt });
		} else if (event.type === "message_end") {
			await recorder.persist(this.store.messages, this.idempotencyKey);
		} else if (event.type === "compaction_end" && event.messages) {
			// The entry goes under the last kept message: after an overflow, beside the dropped reply.
			const [summary] = event.messages;
			const id = await recorder.recordCompaction({ summary: summary.summary, firstKept: event.messages[1], tokensBefore: event.tokensBefore }, event.messages);
			// The summary takes the entry's timestamp: the transcript then equals what buildContext() rebuilds.
			const entry = recorder.session.getEntry(id);
			if (entry) summary.timestamp = entry.timestamp;
		}
	}

	private finishRun(active: ActiveRun): void {
		if (active !== this.activeRun) return;
		this.activeRun = undefined;
		this.store.endRun();
	}

	/** The loop never rejects; this guards against a bug, keeping the agent usable. */
	private failRun(active: ActiveRun, error: unknown): void {
		if (active === this.activeRun) {
			const message = emptyAssistantMessage(this.store.model, "error", `agent loop failed: ${errorText(error)}`);
			this.store.messages.push(message);
			this.store.errorMessage = message.errorMessage;
		}
		this.finishRun(active);
	}
}
