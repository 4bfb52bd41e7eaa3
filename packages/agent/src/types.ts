/**
 * The vocabulary of @pi/agent-core: agent messages, tools, the loop's configuration and the
 * events of a run. Types only: importing this module costs nothing at run time.
 */
import type {
	AssistantMessage,
	AssistantMessageEvent,
	AssistantMessageEventSource,
	Context,
	DeferredFetchOptions,
	DeferredHandle,
	ImageContent,
	Message,
	Model,
	OutputOptions,
	SimpleStreamOptions,
	TextContent,
	Tool,
	ToolCall,
	ToolResultMessage,
	SchemaOutput,
	ToolSchema,
} from "@pi/ai";
import type { TSchema } from "typebox";
import type { CompactionSettings } from "./compaction/should-compact.js";

// ---------------------------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------------------------

/**
 * App-defined messages that live in the transcript next to the LLM messages: UI notices,
 * artifacts, status lines. Empty here; an app adds its own by declaration merging, each entry
 * naming one message type (the key is only a name; the `role` field of the type is what
 * `convertToLlm` switches on).
 *
 * @example
 * ```ts
 * declare module "@pi/agent-core" {
 *   interface CustomAgentMessages {
 *     notification: { role: "notification"; text: string; timestamp: number };
 *   }
 * }
 * ```
 */
export interface CustomAgentMessages {}

/**
 * A built-in transcript message that stands for the conversation before a compaction. A
 * compaction puts it first in the transcript, followed by the kept messages; a session's
 * `buildContext()` does the same after a `compaction` entry. The default `convertToLlm` turns it
 * into a user message saying that it summarises the earlier conversation.
 *
 * @example
 * ```ts
 * const message: CompactionSummaryMessage = { role: "compactionSummary", summary: "## Goal\n…", tokensBefore: 120_000, timestamp: Date.now() };
 * ```
 */
export interface CompactionSummaryMessage {
	role: "compactionSummary";
	/** The structured summary (markdown: goal, progress, decisions, open work, files and identifiers). */
	summary: string;
	/** The estimated context size before the compaction, in tokens. */
	tokensBefore: number;
	/** When the compaction happened (Unix milliseconds). Usage reported before it is stale. */
	timestamp: number;
}

/**
 * A message of the agent's transcript: an LLM message, a compaction summary, or one of the
 * app's custom messages.
 */
export type AgentMessage = Message | CompactionSummaryMessage | CustomAgentMessages[keyof CustomAgentMessages];

/** Reasoning effort requested from the model; `off` asks for none. */
export type ThinkingLevel = "off" | "minimal" | "low" | "medium" | "high" | "xhigh";

// ---------------------------------------------------------------------------------------------
// Tools
// ---------------------------------------------------------------------------------------------

/**
 * What a tool returns: `content` goes to the model, `details` only to the app (UI, logs).
 * `terminate: true` asks the loop to stop after the current batch of tool calls; it does so only
 * when every result of the batch asks for it.
 */
export interface AgentToolResult<T> {
	/** Text and images sent back to the model. */
	content: (TextContent | ImageContent)[];
	/** Structured data for the app; never sent to the model. */
	details: T;
	/** Stop the run after this batch (only when every result of the batch says so). */
	terminate?: boolean;
}

/** Receives a tool's progress while it runs; each call becomes a `tool_execution_update` event. */
export type AgentToolUpdateCallback<T = unknown> = (partialResult: AgentToolResult<T>) => void;

/**
 * `sequential`: each tool call is prepared, run and finished before the next starts.
 * `parallel`: calls are prepared one by one in the assistant's order, then run concurrently.
 */
export type ToolExecutionMode = "sequential" | "parallel";

/**
 * A tool the agent can run. `parameters` is a typebox schema, or a zod / valibot / arktype schema
 * (any Standard Schema with `~standard.jsonSchema`; see docs/tool-validation.md). `execute`
 * receives arguments already validated against `parameters`: for a Standard Schema, the library's
 * output value (defaults filled, transforms applied); it throws on failure (the loop turns the throw into an error result for the
 * model) and should honour `signal`.
 *
 * `TArguments` is what `execute` receives; leave it at its default, `SchemaOutput<TParameters>`
 * (`Static<…>` of a typebox schema, `StandardSchemaV1.InferOutput` of a Standard Schema). It is a
 * type parameter of its own for the type checker's sake: a list of tools is `AgentTool<any>[]`,
 * and relating a concrete tool to it then compares type arguments. Were `Static<TParameters>`
 * written inside the interface, TypeScript would first measure how typebox's `Static` varies
 * with its argument, which costs over a million type instantiations (seconds of `tsc` time in
 * every app with a typed tool); as a default it is only evaluated for concrete schemas.
 *
 * For a tool written inline in `tools: [...]`, wrap it in {@link defineTool} so that its
 * arguments are typed from `parameters`.
 *
 * @example
 * ```ts
 * const add: AgentTool<typeof params, { sum: number }> = {
 *   name: "add", label: "Add", description: "Adds two numbers", parameters: params,
 *   execute: async (_id, { a, b }) => ({ content: [{ type: "text", text: String(a + b) }], details: { sum: a + b } }),
 * };
 * ```
 */
export interface AgentTool<TParameters extends ToolSchema = TSchema, TDetails = unknown, TArguments = AgentToolArguments<TParameters>>
	extends Tool<TParameters> {
	/** A human-readable name for UIs. */
	label: string;
	/**
	 * Adapts raw arguments before validation, e.g. to accept an older argument shape. The value
	 * it returns is what gets validated.
	 */
	prepareArguments?: (args: unknown) => TArguments;
	/**
	 * Runs the tool. Throw on failure rather than encoding errors in `content`.
	 *
	 * Declared as a method so that its parameters compare bivariantly: a typed tool
	 * (`AgentTool<typeof params>`) then fits a list typed `AgentTool[]`, as apps write it.
	 */
	execute(toolCallId: string, params: TArguments, signal?: AbortSignal, onUpdate?: AgentToolUpdateCallback<TDetails>): Promise<AgentToolResult<TDetails>>;
	/** Overrides the loop's mode for this tool: `sequential` runs it alone, after the calls before it. */
	executionMode?: ToolExecutionMode;
	/**
	 * Asks a person before each call runs (see docs/approvals.md): `true` for every call, or a
	 * predicate over the validated arguments. A call that needs approval does not run: the loop
	 * emits `tool_approval_request`, runs the batch's other calls, and ends the run with the call
	 * pending (`agent.state.pendingApprovals`) until `agent.approve()` or `agent.reject()` and
	 * `agent.continue()`. A call whose arguments are invalid is never asked about: it fails
	 * validation as usual. A predicate that throws ends the run with an error naming
	 * `needsApproval`. Default: no approval.
	 *
	 * @example
	 * ```ts
	 * needsApproval: (args) => args.path.startsWith("/etc/"),
	 * ```
	 */
	needsApproval?: boolean | ToolApprovalPredicate<TArguments>;
}

/**
 * The predicate form of `AgentTool.needsApproval`. Written as a method of an object type so that
 * its parameter compares bivariantly, like `execute`'s: a typed tool with a predicate still fits
 * a list typed `AgentTool[]`.
 */
export type ToolApprovalPredicate<TArguments> = {
	check(args: TArguments, context: ToolApprovalContext): boolean | Promise<boolean>;
}["check"];

/** What a `needsApproval` predicate is told besides the arguments. */
export interface ToolApprovalContext {
	/** The id of the tool call being checked. */
	toolCallId: string;
	/** The transcript at this point (the assistant message that asked for the call is last, or followed by results). */
	messages: AgentMessage[];
}

/** A tool call that waits for a person's decision: an entry of `agent.state.pendingApprovals`. */
export interface PendingApproval {
	toolCallId: string;
	toolName: string;
	/** The arguments the model gave, as in the tool-call block. */
	arguments: Record<string, unknown>;
}

/**
 * What happens to a tool call of the transcript's last assistant message that has no result yet
 * (see {@link openToolCalls}):
 *
 * - `pending`: it waits for a decision; nothing happens to it;
 * - `approved`: a person approved it, and it has not started: it runs;
 * - `rejected`: a person rejected it: it gets an error result saying so, with the reason;
 * - `interrupted`: it started (or needed no approval) and the process stopped before its
 *   result: it gets an error result saying it was interrupted, and never runs again.
 */
export type OpenToolCallStatus = "pending" | "approved" | "rejected" | "interrupted";

/** A tool call without a result, and what a run does with it. */
export interface OpenToolCall {
	toolCall: ToolCall;
	status: OpenToolCallStatus;
	/** For `rejected`: the person's reason, if they gave one. */
	reason?: string;
}

/**
 * The arguments `execute` receives: `SchemaOutput<TParameters>`, except for `AgentTool<any>` (the
 * type of tool lists), where typebox's `Static<any>` would be `unknown` and no concrete tool
 * would fit the list.
 */
export type AgentToolArguments<TParameters extends ToolSchema> = 0 extends 1 & TParameters ? any : SchemaOutput<TParameters>;

/** A tool-call block of an assistant message. */
export type AgentToolCall = ToolCall;

// ---------------------------------------------------------------------------------------------
// Context and configuration
// ---------------------------------------------------------------------------------------------

/** What the loop works on: the system prompt, the transcript and the tools. */
export interface AgentContext {
	systemPrompt: string;
	/** The transcript; the loop appends to its own copy, never to this array. */
	messages: AgentMessage[];
	tools?: AgentTool<any>[];
}

/**
 * Streams one assistant reply, like `streamSimple` from `@pi/ai` (the default).
 *
 * Contract: never throws; failures are encoded in the stream as a final message with
 * `stopReason` `error` or `aborted`. The loop survives a function that breaks the contract
 * anyway: a throw or rejection becomes an `error` assistant message.
 */
export type StreamFn = (
	model: Model,
	context: Context,
	options?: SimpleStreamOptions,
) => AssistantMessageEventSource | Promise<AssistantMessageEventSource>;

/**
 * Redeems a deferred reply, like `streamDeferred` from `@pi/ai` (the default): streams the final
 * message for the handle of a `deferred` placeholder. Same contract as {@link StreamFn}.
 */
export type DeferredStreamFn = (
	model: Model,
	handle: DeferredHandle,
	options?: DeferredFetchOptions,
) => AssistantMessageEventSource | Promise<AssistantMessageEventSource>;

/** `beforeToolCall` may block a call; `reason` becomes the text of the error result. */
export interface BeforeToolCallResult {
	block?: boolean;
	reason?: string;
}

/**
 * `afterToolCall` may replace parts of a result, field by field (no deep merge): `content`,
 * `details`, `isError` and `terminate`. Omitted fields keep the executed result's values.
 */
export interface AfterToolCallResult {
	content?: (TextContent | ImageContent)[];
	details?: unknown;
	isError?: boolean;
	terminate?: boolean;
}

/** What `beforeToolCall` is told. */
export interface BeforeToolCallContext {
	/** The assistant message that asked for the call. */
	assistantMessage: AssistantMessage;
	/** The tool-call block of that message. */
	toolCall: AgentToolCall;
	/** The validated arguments. */
	args: unknown;
	/** The loop's context at this point. */
	context: AgentContext;
}

/** What `afterToolCall` is told. */
export interface AfterToolCallContext {
	assistantMessage: AssistantMessage;
	toolCall: AgentToolCall;
	/** The validated arguments. */
	args: unknown;
	/** The result as the tool returned it. */
	result: AgentToolResult<unknown>;
	/** Whether that result counts as an error so far. */
	isError: boolean;
	context: AgentContext;
}

/** What `shouldStopAfterTurn` is told. */
export interface ShouldStopAfterTurnContext {
	/** The turn's assistant message. */
	message: AssistantMessage;
	/** The turn's tool results. */
	toolResults: ToolResultMessage[];
	/** The context with the turn's messages appended. */
	context: AgentContext;
	/** What the run would return if it stopped now. */
	newMessages: AgentMessage[];
}

/**
 * The options of a run that an `Agent` passes to the loop unchanged: every field of
 * `AgentOptions` that the loop reads. Each is documented here once; {@link AgentLoopConfig}
 * extends this, so a field added here reaches the loop with no other change.
 *
 * Every callback may throw or reject: the loop then ends the run with the usual events
 * (`agent_end` included), and the error shows as a final assistant message with
 * `stopReason: "error"` whose `errorMessage` names the callback.
 */
export interface AgentRunOptions extends Pick<SimpleStreamOptions, "sessionId" | "thinkingBudgets" | "maxRetryDelayMs" | "onPayload"> {
	/**
	 * The single boundary between the app's transcript and the model: turns the (transformed)
	 * transcript into LLM messages before each model call. Drop UI-only messages here, and
	 * convert custom ones the model should see (e.g. into user messages). Default (for `Agent`):
	 * `defaultConvertToLlm`, which keeps `user`, `assistant` and `toolResult` messages and turns a
	 * compaction summary into a user message.
	 */
	convertToLlm?: (messages: AgentMessage[]) => Message[] | Promise<Message[]>;
	/**
	 * Rewrites the transcript before `convertToLlm`, e.g. to prune old messages. It receives the
	 * live transcript: return a new array rather than mutating it. Default: none.
	 */
	transformContext?: (messages: AgentMessage[], signal?: AbortSignal) => Promise<AgentMessage[]>;
	/**
	 * Resolves the API key before each model call (short-lived tokens), by provider name. Falls
	 * back to `apiKey` (and then the provider's environment variable) when it returns `undefined`.
	 */
	getApiKey?: (provider: string) => Promise<string | undefined> | string | undefined;
	/** Called after each `turn_end`; returning true ends the run without polling the queues. Default: none. */
	shouldStopAfterTurn?: (context: ShouldStopAfterTurnContext) => boolean | Promise<boolean>;
	/** How the tool calls of one reply run. Default `parallel`. */
	toolExecution?: ToolExecutionMode;
	/** Called after validation, before `execute`; can block the call. Default: none. */
	beforeToolCall?: (context: BeforeToolCallContext, signal?: AbortSignal) => Promise<BeforeToolCallResult | undefined>;
	/** Called after `execute`, before `tool_execution_end`; can override parts of the result. Default: none. */
	afterToolCall?: (context: AfterToolCallContext, signal?: AbortSignal) => Promise<AfterToolCallResult | undefined>;
	/**
	 * The most turns (model calls) a run makes. After the last one (and its tools) the run
	 * ends normally; queued messages stay queued. Default: no limit. Values below 1 count as 1.
	 */
	maxTurns?: number;
	/**
	 * Redeems the deferred reply a continued transcript ends with (see `agentLoopContinue`).
	 * Default `streamDeferred` from `@pi/ai`, which waits until the job ends.
	 */
	streamDeferred?: DeferredStreamFn;
	/**
	 * Automatic context compaction, checked before every model call; off unless `enabled`. When
	 * the estimated context passes `model.contextWindow - reserveTokens`, or a reply overflowed
	 * the window (then the call is retried once), the older messages are replaced by a summary.
	 * See docs/compaction.md.
	 */
	compaction?: AgentCompactionConfig;
	/**
	 * Structured output for the run's answer (docs/structured-output.md): every model call asks
	 * for a reply matching `output.schema`; tools still run as usual, and the reply that ends the
	 * run carries the validated `output` (or ends `error`, naming what does not match). The
	 * compaction summary call does not ask for it. Default: free text.
	 */
	output?: OutputOptions;
}

/**
 * Configures one run of the loop: the {@link AgentRunOptions}, the model, and the queues. The
 * stream options (`temperature`, `maxTokens`, `reasoning`, `sessionId`, …) are passed to every
 * model call.
 */
export interface AgentLoopConfig extends SimpleStreamOptions, AgentRunOptions {
	model: Model;
	/** See {@link AgentRunOptions.convertToLlm}; required here (the loop has no default). */
	convertToLlm: (messages: AgentMessage[]) => Message[] | Promise<Message[]>;
	/**
	 * Messages to deliver before the next model call. Polled at the start of the run and after
	 * each turn. Returned messages are considered delivered: the loop puts them in the transcript.
	 */
	getSteeringMessages?: () => AgentMessage[] | Promise<AgentMessage[]>;
	/** Messages that start another turn when the agent would otherwise stop. */
	getFollowUpMessages?: () => AgentMessage[] | Promise<AgentMessage[]>;
	/**
	 * Beyond the reference API: called when the loop starts preparing a model reply, with a
	 * function that interrupts that reply. Interrupting aborts the model stream at once; the
	 * partial reply is kept as an `aborted` assistant message, its turn ends, and the loop polls
	 * `getSteeringMessages` and goes on. May return a function called when the reply is over.
	 * `Agent` uses it for `steeringMode: "interrupt"`.
	 */
	onReplyStart?: (interrupt: () => void) => (() => void) | void;
	/**
	 * The tool calls of the transcript's last assistant message that have no result, with what to
	 * do with each (from {@link openToolCalls}). The run starts with a turn that makes no model
	 * call: approved calls run (with their usual events), rejected and interrupted ones get their
	 * error results, in call order; its `turn_end` carries that assistant message. When a call is
	 * still `pending` afterwards, the run then ends; otherwise it goes on as usual (prompts,
	 * model call). A run started with prompts first rejects the pending calls (reason
	 * `NEW_MESSAGE_REJECTION`), so that no message follows a call without a result. That turn
	 * does not count towards `maxTurns`. Default: none.
	 */
	openToolCalls?: readonly OpenToolCall[];
}

/**
 * The `compaction` option of the loop and of `Agent`.
 *
 * @example
 * ```ts
 * new Agent({ initialState: { model }, compaction: { enabled: true, keepRecentTokens: 30_000 } });
 * ```
 */
export interface AgentCompactionConfig extends CompactionSettings {
	/** The model that writes the summaries. Default: the model of the run. */
	model?: Model;
	/** Added to the summary prompt, e.g. "keep every SQL query verbatim". */
	customInstructions?: string;
}

/** Why a compaction ran: the estimate passed the threshold, or a reply overflowed the context window. */
export type CompactionReason = "threshold" | "overflow";

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

/**
 * The events of one run, in this order (see the README for the full diagram):
 *
 * - `agent_start` first, `agent_end` last, once each;
 * - turns do not nest: `turn_start` … `turn_end`, one model call per turn;
 * - every message gets `message_start` and `message_end` (an assistant reply also gets
 *   `message_update`s while it streams);
 * - every tool call gets `tool_execution_start`, `tool_execution_update`s, `tool_execution_end`,
 *   and then its tool-result message, unless it needs approval: then it gets one
 *   `tool_approval_request` instead, and its events come in the run that acts on the decision;
 * - a compaction (`compaction_start` … `compaction_end`) comes inside a turn, before its model call.
 *
 * `message` on `message_start`/`message_update` of an assistant reply is the live partial
 * message (the same object on every event, not a copy).
 */
export type AgentEvent =
	| { type: "agent_start" }
	| { type: "agent_end"; messages: AgentMessage[] }
	| { type: "turn_start" }
	| { type: "turn_end"; message: AgentMessage; toolResults: ToolResultMessage[] }
	| { type: "message_start"; message: AgentMessage }
	| { type: "message_update"; message: AgentMessage; assistantMessageEvent: AssistantMessageEvent }
	| {
			type: "message_end";
			message: AgentMessage;
			/**
			 * Set when `message` is the redeemed reply of a deferred placeholder: it takes the
			 * placeholder's place in the transcript instead of being appended after it.
			 */
			replaces?: AssistantMessage;
	  }
	| { type: "tool_execution_start"; toolCallId: string; toolName: string; args: unknown }
	| { type: "tool_execution_update"; toolCallId: string; toolName: string; args: unknown; partialResult: AgentToolResult<unknown> }
	| { type: "tool_execution_end"; toolCallId: string; toolName: string; result: AgentToolResult<unknown>; isError: boolean }
	/** A call needs a person's approval (see `AgentTool.needsApproval`): it does not run in this run. */
	| { type: "tool_approval_request"; toolCallId: string; toolName: string; args: Record<string, unknown> }
	| { type: "compaction_start"; reason: CompactionReason; tokensBefore: number }
	| CompactionEndEvent;

/**
 * The end of a compaction, inside the turn whose model call it precedes. On success it has
 * `summary`, `tokensAfter`, `firstKeptIndex` and the new transcript `messages` (the summary
 * message, then the kept messages). Otherwise the transcript is unchanged and it has `aborted`
 * (the run was aborted: the run then ends as aborted) or `errorMessage` (the run then ends
 * with that error).
 */
export interface CompactionEndEvent {
	type: "compaction_end";
	reason: CompactionReason;
	/** The estimated context size before, in tokens. */
	tokensBefore: number;
	/** The estimated context size after, in tokens. */
	tokensAfter?: number;
	/** The summary that now stands for the older messages. */
	summary?: string;
	/** Index, in the transcript before, of the first kept message. */
	firstKeptIndex?: number;
	/** The transcript after the compaction: the summary message, then the kept messages. */
	messages?: [CompactionSummaryMessage, ...AgentMessage[]];
	/**
	 * For `reason: "overflow"`: the reply that overflowed. It stays in the run's messages (it had
	 * its `message_end`) but not in the compacted transcript: the call is made again without it.
	 */
	overflowReply?: AssistantMessage;
	/** The compaction was stopped by an abort. */
	aborted?: boolean;
	/** The compaction failed (e.g. the summary call failed). */
	errorMessage?: string;
}

// ---------------------------------------------------------------------------------------------
// Agent state
// ---------------------------------------------------------------------------------------------

/**
 * The state an `Agent` exposes. Assigning `tools` or `messages` copies the top-level array; the
 * getters return the live arrays (treat them as read-only).
 */
export interface AgentState {
	systemPrompt: string;
	/** The model for the next turns. */
	model: Model;
	/** The reasoning level for the next turns. */
	thinkingLevel: ThinkingLevel;
	set tools(tools: AgentTool<any>[]);
	get tools(): AgentTool<any>[];
	set messages(messages: AgentMessage[]);
	get messages(): AgentMessage[];
	/** True from `prompt`/`continue` until the run's `agent_end` listeners settled. */
	readonly isStreaming: boolean;
	/** The assistant reply being streamed, if any. */
	readonly streamingMessage?: AgentMessage;
	/** Ids of the tool calls running now. */
	readonly pendingToolCalls: ReadonlySet<string>;
	/**
	 * The tool calls that wait for a person's decision, in the assistant's order; empty when
	 * nothing waits. Derived from the transcript and the approval records (the session's, when
	 * there is one), so a new agent on the same session sees the same list.
	 */
	readonly pendingApprovals: readonly PendingApproval[];
	/** The `errorMessage` of the latest failed or aborted reply of the current or last run. */
	readonly errorMessage?: string;
}
