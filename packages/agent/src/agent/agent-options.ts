import type { QueueMode, SteeringMode } from "./message-queue.js";
import type { Session } from "../session/session.js";
import type { AgentMessage, AgentRunOptions, AgentState, StreamFn } from "../types.js";

/**
 * Options of an {@link Agent}: the {@link AgentRunOptions}, which every run passes to the loop
 * unchanged (each can also be changed later on the instance, e.g. `agent.maxTurns = 3`), and the
 * fields below, which only the agent itself reads.
 *
 * @example
 * ```ts
 * const agent = new Agent({ initialState: { model, tools: [clock] }, toolExecution: "sequential", maxTurns: 8 });
 * ```
 */
export interface AgentOptions extends AgentRunOptions {
	/** Starting state: system prompt, model, thinking level, tools, messages. Default: empty, no model. */
	initialState?: Partial<Omit<AgentState, "pendingToolCalls" | "pendingApprovals" | "isStreaming" | "streamingMessage" | "errorMessage">>;
	/**
	 * Streams each reply. Default `streamSimple` from `@pi/ai`. A custom function is called even
	 * when no model is set (with the placeholder model `NO_MODEL`), so that a mock, a proxy or a
	 * router that picks the model itself runs; only the default ends such a run with "no model set".
	 */
	streamFn?: StreamFn;
	/** How `steer()`ed messages are delivered: `one-at-a-time` (default), `all`, or `interrupt`. */
	steeringMode?: SteeringMode;
	/** How `followUp()` messages are delivered: `one-at-a-time` (default) or `all`. */
	followUpMode?: QueueMode;
	/**
	 * The session that keeps this agent's conversation (see docs/sessions.md). The agent starts
	 * from it (messages, model, thinking level, system prompt; `initialState` overrides the
	 * settings) and appends every message at its `message_end`, awaiting the append before the
	 * run goes on; setting changes are appended before the next model call. A failed append
	 * ends the run with an `error` message. `sessionId` defaults to the session's id.
	 */
	session?: Session;
	/**
	 * The idempotency key of the session entry that stores `message`, asked once as the agent
	 * appends it (see `Session.findByIdempotencyKey`). Lets an app that mirrors the transcript
	 * elsewhere (a chat UI's message ids) find its messages in the session again. Default: none.
	 */
	idempotencyKey?: (message: AgentMessage) => string | undefined;
}

/**
 * Every key of {@link AgentRunOptions}, once. The `Record` type makes the compiler reject a
 * list that misses a key or names one too many, so an option added to `AgentRunOptions` is
 * copied to the instance and into every run's config without another edit.
 */
const RUN_OPTION_KEYS: Record<keyof AgentRunOptions, true> = {
	convertToLlm: true,
	transformContext: true,
	getApiKey: true,
	onPayload: true,
	beforeToolCall: true,
	afterToolCall: true,
	shouldStopAfterTurn: true,
	sessionId: true,
	thinkingBudgets: true,
	maxRetryDelayMs: true,
	toolExecution: true,
	maxTurns: true,
	streamDeferred: true,
	compaction: true,
	output: true,
};

/** The keys of {@link AgentRunOptions}, in a fixed order. */
export const AGENT_RUN_OPTION_KEYS = Object.keys(RUN_OPTION_KEYS) as readonly (keyof AgentRunOptions)[];

/** The run options of `source` (an `AgentOptions` or an `Agent`), without the keys it leaves unset. */
export function pickRunOptions(source: AgentRunOptions): AgentRunOptions {
	const picked: Record<string, unknown> = {};
	for (const key of AGENT_RUN_OPTION_KEYS) if (source[key] !== undefined) picked[key] = source[key];
	return picked as AgentRunOptions;
}
