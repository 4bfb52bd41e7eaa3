import { EventStream, streamSimple } from "@pi/ai";
import { LoopRun } from "./loop-run-state.js";
import type { AgentEventSink } from "./run-emitter.js";
import { isRedeemable } from "./redeem-deferred.js";
import { runLoop } from "./run-turns.js";
import type { AgentContext, AgentEvent, AgentLoopConfig, AgentMessage, StreamFn } from "../types.js";

export type { AgentEventSink } from "./run-emitter.js";

/**
 * Starts a run with new prompt messages and returns its events at once. The prompts are added to
 * (a copy of) the context with `message_start`/`message_end`, then the model is called.
 *
 * The stream ends with `agent_end`; `result()` resolves with the messages the run added and
 * never rejects. Every failure (a throwing callback, a broken stream function) ends the run with
 * the usual events and an `error` assistant message.
 *
 * @param streamFn Streams each reply. Default `streamSimple` from `@pi/ai`.
 *
 * @example
 * ```ts
 * const events = agentLoop([{ role: "user", content: "Hi", timestamp: Date.now() }],
 *   { systemPrompt: "Be brief.", messages: [], tools: [] },
 *   { model, convertToLlm: (messages) => messages.filter((m) => m.role !== "notification") });
 * for await (const event of events) if (event.type === "message_end") console.log(event.message);
 * const added = await events.result();
 * ```
 */
export function agentLoop(
	prompts: AgentMessage[],
	context: AgentContext,
	config: AgentLoopConfig,
	signal?: AbortSignal,
	streamFn?: StreamFn,
): EventStream<AgentEvent, AgentMessage[]> {
	const stream = createAgentEventStream();
	void runAgentLoop(prompts, context, config, (event) => stream.push(event), signal, streamFn).then((messages) =>
		stream.end(messages),
	);
	return stream;
}

/**
 * Runs the loop again on the context as it is, without a new message: to retry after an error,
 * or to answer tool results. The last message must not be an assistant message (throws at once);
 * it must convert to a `user` or `toolResult` message. The exception is a deferred reply (an
 * assistant message with a `deferred` handle): the run then redeems it with
 * `config.streamDeferred`, the final message takes the placeholder's place, and the run goes
 * on as usual (tools, more turns). With `config.openToolCalls`, the last message may be the
 * assistant message of those calls: the run answers them first.
 */
export function agentLoopContinue(
	context: AgentContext,
	config: AgentLoopConfig,
	signal?: AbortSignal,
	streamFn?: StreamFn,
): EventStream<AgentEvent, AgentMessage[]> {
	assertContinuable(context, config);
	const stream = createAgentEventStream();
	void runAgentLoopContinue(context, config, (event) => stream.push(event), signal, streamFn).then((messages) =>
		stream.end(messages),
	);
	return stream;
}

/**
 * Like {@link agentLoop}, delivering events to `emit` (awaited before the run goes on) and
 * resolving with the messages the run added. Never rejects. A throwing `emit` ends the run.
 */
export function runAgentLoop(
	prompts: AgentMessage[],
	context: AgentContext,
	config: AgentLoopConfig,
	emit: AgentEventSink,
	signal?: AbortSignal,
	streamFn?: StreamFn,
): Promise<AgentMessage[]> {
	const run = new LoopRun(context, config, emit, signal, streamFn ?? streamSimple);
	return runLoop(run, prompts);
}

/** Like {@link agentLoopContinue}, with an `emit` sink. Rejects only when the context cannot be continued. */
export async function runAgentLoopContinue(
	context: AgentContext,
	config: AgentLoopConfig,
	emit: AgentEventSink,
	signal?: AbortSignal,
	streamFn?: StreamFn,
): Promise<AgentMessage[]> {
	assertContinuable(context, config);
	const run = new LoopRun(context, config, emit, signal, streamFn ?? streamSimple);
	return runLoop(run, []);
}

function createAgentEventStream(): EventStream<AgentEvent, AgentMessage[]> {
	return new EventStream<AgentEvent, AgentMessage[]>(
		(event) => event.type === "agent_end",
		(event) => (event.type === "agent_end" ? event.messages : []),
		() => [],
	);
}

function assertContinuable(context: AgentContext, config: AgentLoopConfig): void {
	const last = context.messages[context.messages.length - 1];
	if (!last) throw new Error("Cannot continue: no messages in context");
	// Open tool calls are answered first (see config.openToolCalls), so their message may be last.
	if (config.openToolCalls && config.openToolCalls.length > 0) return;
	// A deferred reply is continued by redeeming it.
	if (last.role === "assistant" && !isRedeemable(last)) throw new Error("Cannot continue from message role: assistant");
}
