/**
 * The vocabulary of @pi/ai: messages, content blocks, context, usage, models and the event
 * protocol of a streamed assistant reply. Every other module speaks in these types. The message
 * half (APIs, blocks, usage, messages, events) is declared in `message-types.ts`, which the
 * event stream builds on, and re-exported here.
 *
 * This module holds types only: importing it costs nothing at run time. Tool parameters are
 * typebox schemas, referenced here with `import type` so that typebox is never loaded by it.
 */
import type { TSchema } from "typebox";
import type { AssistantMessageEventStream } from "./event-stream.js";
import type { Api, AssistantMessage, DeferredHandle, Message, Provider } from "./message-types.js";
import type { SchemaOutput, ToolSchema } from "./validation/standard-schema.js";

export type { AssistantMessageEventStream } from "./event-stream.js";
/** Messages, content blocks, usage and the events of a reply (see message-types.ts). */
export type * from "./message-types.js";
export type { AssistantMessageDiagnostic, DiagnosticErrorInfo } from "./diagnostics.js";
/** typebox's schema types, re-exported as types only (no run-time cost). */
export type { Static, TSchema } from "typebox";

// ---------------------------------------------------------------------------------------------
// Tools and context
// ---------------------------------------------------------------------------------------------

/**
 * A tool the model may call. `parameters` is a typebox schema, any plain JSON Schema object (for
 * example from an MCP server) typed as `TSchema`, or a schema from any library implementing
 * Standard Schema and Standard JSON Schema (zod 4.2+, valibot through `@valibot/to-json-schema`,
 * arktype 2.1.28+): the request carries its JSON Schema, and validation goes through the library
 * (see docs/tool-validation.md).
 *
 * @example
 * const weather: Tool = { name: "weather", description: "Weather in a city", parameters: z.object({ city: z.string() }) };
 */
export interface Tool<TParameters extends ToolSchema = TSchema> {
	name: string;
	description: string;
	parameters: TParameters;
}

/** The arguments type of a tool: `Static<…>` of a typebox schema, a Standard Schema's output type. */
export type ToolArguments<T extends Tool<ToolSchema>> = SchemaOutput<T["parameters"]>;

/** Everything one model request needs besides the model and options. */
export interface Context {
	systemPrompt?: string;
	messages: Message[];
	tools?: Tool[];
}

// ---------------------------------------------------------------------------------------------
// Models
// ---------------------------------------------------------------------------------------------

/**
 * Differences between servers that speak Chat Completions. Each field is auto-detected from
 * the model's `baseUrl` and provider unless set here.
 */
export interface OpenAICompletionsCompat {
	/** Send the system prompt with the `developer` role instead of `system`. */
	supportsDeveloperRole?: boolean;
	/** Which field carries the output limit. */
	maxTokensField?: "max_completion_tokens" | "max_tokens";
	/** Send `stream_options: { include_usage: true }`. */
	supportsUsageInStreaming?: boolean;
	/** Send `reasoning_effort` for reasoning models. */
	supportsReasoningEffort?: boolean;
	/** Send the `store` field. */
	supportsStore?: boolean;
	/** Tool result messages need a `name` field. */
	requiresToolResultName?: boolean;
	/** Send `strict` on tool definitions. */
	supportsStrictMode?: boolean;
	/**
	 * How the server wants reasoning requested and replayed. Streamed reasoning is read in every
	 * format. Two vocabularies are accepted:
	 * - replay formats: `reasoning_content`, `reasoning`, `content-parts`, `none`;
	 * - the request formats of `@mariozechner/pi-ai` (see {@link ReasoningRequestFormat}), which
	 *   also pick the matching replay format (docs/migration.md has the table).
	 */
	thinkingFormat?: "reasoning_content" | "reasoning" | "content-parts" | "none" | ReasoningRequestFormat;
	/** A user message right after tool results needs an assistant message in between (e.g. Mistral). */
	requiresAssistantAfterToolResult?: boolean;
	/**
	 * Send `options.metadata` as `metadata`. OpenAI accepts it only together with `store: true`,
	 * so enabling this also stores the completion on OpenAI's side. Default `false` everywhere.
	 */
	supportsMetadata?: boolean;
	/** Send `prompt_cache_key` from `sessionId` (and `prompt_cache_retention` for long retention). */
	supportsPromptCacheKey?: boolean;
	/**
	 * The `reasoning_effort` value sent for each thinking level, e.g. `{ xhigh: "high" }` where the
	 * server has no `xhigh`. Entries given here replace the detected ones.
	 */
	reasoningEffortMap?: Partial<Record<ThinkingLevel, string>>;
	/**
	 * How `options.output` is requested. `json_schema`: `response_format: { type: "json_schema" }`
	 * (with `strict: true` and the schema in strict form where `supportsStrictMode`);
	 * `json_object`: JSON mode, with the schema in the system prompt. Detected `json_object` for
	 * DeepSeek (JSON mode only), else `json_schema`.
	 */
	structuredOutput?: "json_schema" | "json_object";
	/** Tool-call ids the server accepts: `mistral` needs exactly 9 letters and digits. */
	toolCallIdFormat?: "default" | "mistral";
	// --- Fields named and read as in `@mariozechner/pi-ai` ---
	/** OpenRouter routing preferences, sent as the body's `provider` field when `baseUrl` is OpenRouter's. */
	openRouterRouting?: OpenRouterRouting;
	/** Vercel AI Gateway routing, sent as `providerOptions.gateway` when `baseUrl` is the gateway's. */
	vercelGatewayRouting?: VercelGatewayRouting;
	/** Whether the server takes `prompt_cache_retention: "24h"` for `cacheRetention: "long"`. Default `true`. */
	supportsLongCacheRetention?: boolean;
	/**
	 * Send the same model's thinking back as plain text: the assistant `content` becomes a list
	 * of text parts, the thinking (blocks joined by a blank line, no tags) first, then the
	 * reply's text, and no reasoning field is sent, whatever `thinkingFormat` says. For servers
	 * that take no reasoning field but lose the thread without the reasoning. Default `false`.
	 */
	requiresThinkingAsText?: boolean;
	/**
	 * Every assistant message of a reasoning model carries `reasoning_content`, `""` where there
	 * is no reasoning to replay (another model's turn, a turn without thinking). DeepSeek's
	 * thinking mode answers 400 "Missing `reasoning_content` field in the assistant message"
	 * otherwise. Detected `true` for DeepSeek, else `false`.
	 */
	requiresReasoningContentOnAssistantMessages?: boolean;
	/** Send `tool_stream: true` with tools, so that z.ai streams tool-call arguments. Default `false`. */
	zaiToolStream?: boolean;
	/**
	 * `anthropic`: mark prompt-cache breakpoints with Anthropic's `cache_control` on the system
	 * message, the last tool and the last user or assistant text, as OpenRouter wants for Claude
	 * models (`{ type: "ephemeral" }`, plus `ttl: "1h"` for `cacheRetention: "long"`; none for
	 * `cacheRetention: "none"`). Detected for OpenRouter models named `anthropic/…`; else unset.
	 */
	cacheControlFormat?: "anthropic";
	/**
	 * With `sessionId`, send it as the `session_id`, `x-client-request-id` and
	 * `x-session-affinity` headers, which some gateways use to route a session to one backend
	 * (and keep its prompt cache warm). `options.headers` still win. Default `false`.
	 */
	sendSessionAffinityHeaders?: boolean;
}

/**
 * How a reasoning level is put in the request, in the vocabulary of `@mariozechner/pi-ai`:
 * `openai` sends `reasoning_effort`; `openrouter` sends `reasoning: { effort }`; `deepseek` sends
 * `thinking: { type }` plus `reasoning_effort`; `zai` and `qwen` send `enable_thinking`;
 * `qwen-chat-template` sends `chat_template_kwargs.enable_thinking`.
 */
export type ReasoningRequestFormat = "openai" | "openrouter" | "deepseek" | "zai" | "qwen" | "qwen-chat-template";

/** OpenRouter provider routing (its `provider` request field); see openrouter.ai/docs/guides/routing. */
export interface OpenRouterRouting {
	allow_fallbacks?: boolean;
	require_parameters?: boolean;
	data_collection?: "deny" | "allow";
	zdr?: boolean;
	enforce_distillable_text?: boolean;
	order?: string[];
	only?: string[];
	ignore?: string[];
	quantizations?: string[];
	sort?: string | { by?: string; partition?: string | null };
	max_price?: { prompt?: number | string; completion?: number | string; image?: number | string; audio?: number | string; request?: number | string };
	preferred_min_throughput?: number | { p50?: number; p75?: number; p90?: number; p99?: number };
	preferred_max_latency?: number | { p50?: number; p75?: number; p90?: number; p99?: number };
}

/** Vercel AI Gateway routing: which upstream providers it may use, in which order. */
export interface VercelGatewayRouting {
	only?: string[];
	order?: string[];
}

/** Differences between servers that speak Anthropic Messages. */
export interface AnthropicMessagesCompat {
	/**
	 * Whether the server takes `eager_input_streaming: true` on tool definitions (Anthropic's
	 * fine-grained tool streaming: tool input streams without buffering). Default `true`: every
	 * tool gets it. `false`: no tool gets it, and a request with tools asks for the same streaming
	 * with the `fine-grained-tool-streaming-2025-05-14` beta header instead.
	 */
	supportsEagerToolInputStreaming?: boolean;
	/** Whether the server takes `cache_control.ttl: "1h"` for `cacheRetention: "long"`. Default `true`. */
	supportsLongCacheRetention?: boolean;
	/**
	 * Whether `options.output` goes out as structured outputs (`output_config.format`) rather than
	 * a forced tool. Detected from the model id (Opus 4.1+, Sonnet 4.5+, Haiku 4.5+, later models).
	 */
	supportsStructuredOutputs?: boolean;
}

/** Differences between servers that speak OpenAI Responses. */
export interface OpenAIResponsesCompat {
	/** Send `prompt_cache_key` from `sessionId`. */
	supportsPromptCacheKey?: boolean;
	/** Ask for reasoning summaries on reasoning models. */
	supportsReasoningSummary?: boolean;
	/**
	 * With `sessionId`, send it as the `session_id` header (next to `x-client-request-id`, which
	 * is always sent with a `sessionId`). Default `true`; `false` for servers that reject it.
	 * `options.headers` still win.
	 */
	sendSessionIdHeader?: boolean;
	/** Whether the server takes `prompt_cache_retention: "24h"` for `cacheRetention: "long"`. Default `true`. */
	supportsLongCacheRetention?: boolean;
}

export type ModelCompat<TApi extends Api> = TApi extends "openai-completions"
	? OpenAICompletionsCompat
	: TApi extends "openai-responses"
		? OpenAIResponsesCompat
		: TApi extends "anthropic-messages"
			? AnthropicMessagesCompat
			: Record<string, unknown>;

export interface Model<TApi extends Api = Api> {
	id: string;
	name: string;
	api: TApi;
	provider: Provider;
	/** The API root, e.g. `https://api.openai.com/v1`. */
	baseUrl: string;
	/** The model can reason (thinking). */
	reasoning: boolean;
	/**
	 * Per-model thinking levels: the value sent for a level (e.g. Groq qwen3 `high` → `default`),
	 * `null` for a level the model does not take. Missing keys use the provider's own mapping.
	 * Read by `getSupportedThinkingLevels` / `clampThinkingLevel` and by `streamSimple`.
	 */
	thinkingLevelMap?: ThinkingLevelMap;
	input: ("text" | "image")[];
	/** Prices in US dollars per million tokens. */
	cost: {
		input: number;
		output: number;
		cacheRead: number;
		cacheWrite: number;
	};
	/**
	 * Prices of the provider's batch mode (Anthropic Message Batches, Gemini batch mode), in US
	 * dollars per million tokens. Absent: half of `cost`, as both providers document.
	 */
	batchCost?: {
		input: number;
		output: number;
		cacheRead: number;
		cacheWrite: number;
	};
	contextWindow: number;
	maxTokens: number;
	/** Headers sent with every request to this model. */
	headers?: Record<string, string>;
	compat?: ModelCompat<TApi>;
}

// ---------------------------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------------------------

export type ThinkingLevel = "minimal" | "low" | "medium" | "high" | "xhigh";

/** A thinking level including `off`, as `getSupportedThinkingLevels` lists them. */
export type ModelThinkingLevel = "off" | ThinkingLevel;

/** Per-model overrides of the value sent for a thinking level; `null` marks a level unsupported. */
export type ThinkingLevelMap = Partial<Record<ModelThinkingLevel, string | null>>;

/** Transport preference of the reference; every provider here streams over SSE and ignores it. */
export type Transport = "sse" | "websocket" | "websocket-cached" | "auto";

/** What `onResponse` is told: the HTTP status and headers, before the body is read. */
export interface ProviderResponse {
	status: number;
	headers: Record<string, string>;
}

/** The reference's structured `textSignature` (OpenAI Responses message id and phase), JSON-encoded. */
export interface TextSignatureV1 {
	v: 1;
	id: string;
	phase?: "commentary" | "final_answer";
}

/** Token budgets per thinking level, for providers with budget-based thinking. */
export interface ThinkingBudgets {
	minimal?: number;
	low?: number;
	medium?: number;
	high?: number;
	xhigh?: number;
}

export type CacheRetention = "none" | "short" | "long";

/** What `onRetry` is told before each retry. */
export interface RetryInfo {
	/** 1 for the first retry. */
	attempt: number;
	/** How long the library waits before it, in milliseconds. */
	delayMs: number;
	/** HTTP status, when the failure was an HTTP response. */
	status?: number;
	/** Why the previous attempt failed. Never contains an API key. */
	reason: string;
}

/**
 * Structured output: ask for a reply that is one JSON value matching `schema` (a typebox schema,
 * any plain JSON Schema typed as `TSchema`, or a zod / valibot / arktype schema: see {@link Tool}). Each API's native mechanism carries the schema; the
 * reply's text is parsed as it streams (`partialOutput` on `text_delta`) and validated at the end
 * (`AssistantMessage.output`). `name` (letters, digits, `_` and `-`, at most 64; default `output`)
 * and `description` are sent where the API takes them. See docs/structured-output.md.
 *
 * @example
 * const Invoice = Type.Object({ vendor: Type.String(), total: Type.Number() });
 * const reply = await complete(model, context, { output: { schema: Invoice, name: "invoice" } });
 * reply.output?.total; // number
 */
export interface OutputOptions<TOutputSchema extends ToolSchema = TSchema> {
	schema: TOutputSchema;
	name?: string;
	description?: string;
}

/**
 * The event stream of a call whose output schema the call site knows: `result()` resolves to an
 * `AssistantMessage` whose `output` has the schema's static type. Otherwise it is the plain
 * `AssistantMessageEventStream`.
 */
export type OutputEventStream<TOutput> = { result(): Promise<AssistantMessage<TOutput>> } & AssistantMessageEventStream;

/** The `output` option typed by its schema, so that entry points can infer the output type (`SchemaOutput<typeof schema>`). */
export interface TypedOutputOption<TOutputSchema extends ToolSchema> {
	output?: OutputOptions<TOutputSchema>;
}

export interface StreamOptions {
	temperature?: number;
	maxTokens?: number;
	/** Aborting it ends the stream promptly with `stopReason: "aborted"`, keeping its content. */
	signal?: AbortSignal;
	/** Defaults to `getEnvApiKey(model.provider)`. */
	apiKey?: string;
	/** Extra HTTP headers, merged last over the provider's own. */
	headers?: Record<string, string>;
	/** A stable id for the conversation; providers use it for prompt caching and routing. */
	sessionId?: string;
	/** Request metadata, sent where the API supports it (e.g. Anthropic `metadata.user_id`). */
	metadata?: Record<string, unknown>;
	/** Prompt cache retention. Default `short`. */
	cacheRetention?: CacheRetention;
	/** Inspect or replace the request body before it is sent. Return `undefined` to keep it. */
	onPayload?: (payload: unknown, model: Model<Api>) => unknown | undefined | Promise<unknown | undefined>;
	/** Retries before any content arrived. Default 2; 0 disables retries. */
	maxRetries?: number;
	/** Give up at once when the server asks to wait longer than this. Default 60 000 ms. */
	maxRetryDelayMs?: number;
	/** End the stream with an error when no bytes arrive for this long. Default 120 000 ms; 0 disables it. */
	idleTimeoutMs?: number;
	/**
	 * End the stream with an error when one server-sent event (or a line that never ends) passes
	 * this size, before it fills the memory. Default 64 MiB, far above any real event.
	 */
	maxEventBytes?: number;
	/** Told about each retry before its delay. */
	onRetry?: (info: RetryInfo) => void;
	/** Told the status and headers of each HTTP response before its body is read. */
	onResponse?: (response: ProviderResponse, model: Model<Api>) => void | Promise<void>;
	/** Abort the request when it has not finished after this many milliseconds. No default. */
	timeoutMs?: number;
	/** Accepted for compatibility with the reference; every provider here uses SSE. */
	transport?: Transport;
	/**
	 * Send the request as a job that finishes later: a background response (OpenAI Responses), a
	 * batch of one (Anthropic Message Batches, Gemini batch mode). The stream then emits `start`
	 * and `done` with reason `deferred`, and the message's `deferred` handle redeems the reply with
	 * `streamDeferred` or `fetchDeferred`. `window` is the longest completion window the app
	 * accepts (`"90m"`, `"24h"`, `"2d"`): none of the APIs takes one in its request, so it is
	 * checked instead. A window shorter than the API's own (24 hours for the batch APIs; a
	 * Responses background job starts at once) ends with an `error` naming both, before anything
	 * is sent, as does a window that is not a duration. An API that cannot defer ends with an
	 * `error` naming it, never with a normal request. Default: not deferred.
	 */
	deferred?: boolean | { window?: string };
	/** Ask for a reply that matches a JSON Schema (see {@link OutputOptions}). Default: free text. */
	output?: OutputOptions;
}

/**
 * Options of `streamDeferred` and `fetchDeferred`: the transport options of a request (key,
 * headers, signal, retries, idle timeout, `timeoutMs` and `onResponse`, applied to each request:
 * every status check, the results download, each resumed stream) plus how long to wait for the job.
 */
export interface DeferredFetchOptions
	extends Pick<StreamOptions, "apiKey" | "headers" | "signal" | "maxRetries" | "maxRetryDelayMs" | "idleTimeoutMs" | "timeoutMs" | "onRetry" | "onResponse" | "output"> {
	/**
	 * How long to wait for the job to end, in milliseconds. When it passes first, the reply ends
	 * `deferred` again with a fresh handle. `0` makes one status check. Default: no limit for
	 * `streamDeferred` (it waits until the job ends or its handle expires), `0` for `fetchDeferred`.
	 */
	maxWaitMs?: number;
	/** The reference's name for `maxWaitMs`; `maxWaitMs` wins when both are given. */
	wait?: number;
	/** Wait between status checks when the handle has no `pollAfterMs`. Default 2 000 ms. */
	pollIntervalMs?: number;
	/**
	 * OpenAI Responses only: `stream` resumes the job's event stream (the default of
	 * `streamDeferred`), `poll` checks the response object until it ends (the default of
	 * `fetchDeferred`). Batch APIs always poll.
	 */
	resume?: "stream" | "poll";
}

/** Options of `cancelDeferred`: the transport options of its one request (`timeoutMs` bounds it, retries included). */
export type DeferredCancelOptions = Pick<
	StreamOptions,
	"apiKey" | "headers" | "signal" | "maxRetries" | "maxRetryDelayMs" | "idleTimeoutMs" | "timeoutMs" | "onRetry" | "onResponse"
>;

/**
 * Redeems a deferred reply: streams it as it arrives (a resumed stream) or all at once when the
 * job ends (a batch). Returns at once and never throws, like a {@link StreamFunction}.
 */
export type DeferredStreamFunction<TApi extends Api = Api> = (
	model: Model<TApi>,
	handle: DeferredHandle,
	options?: DeferredFetchOptions,
) => AssistantMessageEventStream;

/** Cancels a deferred job. Idempotent: a job that already ended or was cancelled is not an error. */
export type DeferredCancelFunction<TApi extends Api = Api> = (
	model: Model<TApi>,
	handle: DeferredHandle,
	options?: DeferredCancelOptions,
) => Promise<void>;

/** Options per provider: the common ones plus whatever that provider reads. */
export type ProviderStreamOptions = StreamOptions & Record<string, unknown>;

export interface SimpleStreamOptions extends StreamOptions {
	/** Reasoning effort; omitted or on a non-reasoning model means no reasoning is requested. */
	reasoning?: ThinkingLevel;
	/** Token budgets per level for budget-based providers. */
	thinkingBudgets?: ThinkingBudgets;
}

/**
 * Streams one assistant reply.
 *
 * Contract: it returns at once and never throws. Every failure, before or after the request,
 * is encoded in the stream as a final message with `stopReason` `error` or `aborted`.
 */
export type StreamFunction<TApi extends Api = Api, TOptions extends StreamOptions = StreamOptions> = (
	model: Model<TApi>,
	context: Context,
	options?: TOptions,
) => AssistantMessageEventStream;
