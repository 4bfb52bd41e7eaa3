/**
 * The vocabulary of messages: the APIs and providers a message comes from, content blocks,
 * usage, stop reasons, the three message roles and the events of a streamed assistant reply.
 * `types.ts` re-exports all of it (import from there); it lives apart because the event stream
 * is built on it, and `types.ts` names the event stream: one file would import the other both ways.
 *
 * Types only: importing it costs nothing at run time.
 */
import type { AssistantMessageDiagnostic } from "./diagnostics.js";

// ---------------------------------------------------------------------------------------------
// APIs and providers
// ---------------------------------------------------------------------------------------------

/** The wire APIs this package speaks. */
export type KnownApi =
	| "openai-completions"
	| "openai-responses"
	| "anthropic-messages"
	| "google-generative-ai"
	| "faux"
	// The reference's other apis: no built-in provider here (docs/migration.md), but the names are
	// known so that models written for them type-check; `setBedrockProviderModule` plugs one in.
	| "mistral-conversations"
	| "azure-openai-responses"
	| "openai-codex-responses"
	| "bedrock-converse-stream"
	| "google-vertex";

/** A wire API name: a known one, or any string registered with `registerApiProvider`. */
export type Api = KnownApi | (string & {});

/** Providers that the model catalog and `getEnvApiKey` know. */
export type KnownProvider =
	| "openai"
	| "anthropic"
	| "google"
	| "xai"
	| "groq"
	| "mistral"
	| "deepseek"
	| "openrouter"
	| "cerebras"
	| "togetherai"
	| "azure"
	| "ollama"
	| "faux"
	// The reference's other providers: known names without catalog entries here (docs/migration.md).
	| "amazon-bedrock"
	| "google-vertex"
	| "azure-openai-responses"
	| "openai-codex"
	| "github-copilot"
	| "vercel-ai-gateway"
	| "zai"
	| "minimax"
	| "minimax-cn"
	| "moonshotai"
	| "moonshotai-cn"
	| "huggingface"
	| "fireworks"
	| "opencode"
	| "opencode-go"
	| "kimi-coding"
	| "cloudflare-workers-ai"
	| "cloudflare-ai-gateway"
	| "xiaomi"
	| "xiaomi-token-plan-cn"
	| "xiaomi-token-plan-ams"
	| "xiaomi-token-plan-sgp";

/** A provider name: a known one or any other string. */
export type Provider = KnownProvider | (string & {});

/** @deprecated Alias kept for the seed document's name. Use {@link Provider}. */
export type ProviderId = Provider;

// ---------------------------------------------------------------------------------------------
// Content blocks
// ---------------------------------------------------------------------------------------------

export interface TextContent {
	type: "text";
	text: string;
	/** Opaque provider data needed to replay this text to the same model (e.g. a Responses item id). */
	textSignature?: string;
}

export interface ThinkingContent {
	type: "thinking";
	thinking: string;
	/**
	 * Opaque data that lets the same model verify its own reasoning when it is replayed:
	 * Anthropic's signature, a Responses reasoning item, Gemini's thought signature.
	 * For redacted thinking it holds the encrypted payload.
	 */
	thinkingSignature?: string;
	/** The provider redacted this reasoning; `thinkingSignature` holds the opaque payload. */
	redacted?: boolean;
}

/** An image as base64 `data` with its MIME type, e.g. `image/png`. */
export interface ImageContent {
	type: "image";
	data: string;
	mimeType: string;
}

export interface ToolCall {
	type: "toolCall";
	/** The wire id of the call; tool results refer to it through `toolCallId`. */
	id: string;
	name: string;
	/** The parsed JSON arguments. While streaming, the best-effort partial value so far. */
	arguments: Record<string, any>;
	/** Gemini's thought signature for this call, replayed to the same model. */
	thoughtSignature?: string;
}

// ---------------------------------------------------------------------------------------------
// Usage and stop reasons
// ---------------------------------------------------------------------------------------------

/** Token counts and their cost in US dollars. `totalTokens = input + output + cacheRead + cacheWrite`. */
export interface Usage {
	/** Input tokens neither read from nor written to a cache. */
	input: number;
	/** All output tokens, reasoning included. */
	output: number;
	cacheRead: number;
	cacheWrite: number;
	totalTokens: number;
	cost: {
		input: number;
		output: number;
		cacheRead: number;
		cacheWrite: number;
		total: number;
	};
}

/**
 * Why the model stopped.
 *
 * - `pending`: the message is still streaming. Every partial message has it; no final one does.
 * - `stop`: a normal end of turn.
 * - `length`: the output token limit was reached.
 * - `toolUse`: the model asks for tool calls; an agent runs them and calls the model again.
 * - `error`: the request or the stream failed; see `errorMessage`.
 * - `aborted`: the caller's signal aborted the request.
 * - `deferred`: the provider finishes the reply later; see `AssistantMessage.deferred`.
 */
export type StopReason = "pending" | "stop" | "length" | "toolUse" | "error" | "aborted" | "deferred";

/** A JSON value: what survives `JSON.stringify` and `JSON.parse` unchanged. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * Where to fetch a reply that a provider finishes later (`stopReason: "deferred"`): a background
 * response, a batch of one. It is plain JSON, so it can be written anywhere (a session file, a
 * database row) and redeemed in another process with `streamDeferred` or `fetchDeferred`.
 *
 * @example
 * const saved = JSON.stringify(message.deferred);
 * // later, anywhere:
 * const reply = await fetchDeferred(model, JSON.parse(saved), { maxWaitMs: 60_000 });
 */
export interface DeferredHandle {
	provider: Provider;
	api: Api;
	/** The id of the model that was asked. */
	modelId: string;
	/** The provider's id for the pending job: a Responses `resp_…` id, an Anthropic `msgbatch_…` id, a Gemini `batches/…` name. */
	id: string;
	/** Epoch milliseconds after which the provider forgets the job; redeeming after it is an error. */
	expiresAt?: number;
	/** How long to wait between two status checks, in milliseconds. */
	pollAfterMs?: number;
	/** Whatever else the provider needs to finish the reply (a row id, a stream cursor). JSON only. */
	data?: JsonValue;
}

// ---------------------------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------------------------

export interface UserMessage {
	role: "user";
	content: string | (TextContent | ImageContent)[];
	/** Epoch milliseconds. */
	timestamp: number;
}

/**
 * One assistant reply. `TOutput` is the type of `output`: `unknown` unless the call site knows the
 * output schema (`complete(model, context, { output: { schema } })` gives `Static<typeof schema>`, or a zod / valibot / arktype schema's output type).
 */
export interface AssistantMessage<TOutput = unknown> {
	role: "assistant";
	content: (TextContent | ThinkingContent | ToolCall)[];
	/** The wire API that produced this message. */
	api: Api;
	provider: Provider;
	/** The requested model id. */
	model: string;
	/** The provider's id for this response, when it sends one. */
	responseId?: string;
	/** The model id the provider says answered, when it differs from the requested one (reference name). */
	responseModel?: string;
	/** Structured notes about failures and recoveries while producing this message (see `createAssistantMessageDiagnostic`). */
	diagnostics?: AssistantMessageDiagnostic[];
	usage: Usage;
	stopReason: StopReason;
	/** The provider's own stop value (`end_turn`, `tool_calls`, `MAX_TOKENS`, …). */
	rawStopReason?: string;
	/** Set when `stopReason` is `error` or `aborted`. Never contains an API key. */
	errorMessage?: string;
	/** Set when `stopReason` is `deferred`. */
	deferred?: DeferredHandle;
	/**
	 * The reply's JSON, parsed and validated against `options.output.schema`: set only when output
	 * was requested and the reply ended with `stopReason` `stop`. A reply that does not parse or
	 * match ends with `error` instead (the raw text stays in `content`); see docs/structured-output.md.
	 */
	output?: TOutput;
	/** Epoch milliseconds. */
	timestamp: number;
}

export interface ToolResultMessage<TDetails = any> {
	role: "toolResult";
	toolCallId: string;
	toolName: string;
	content: (TextContent | ImageContent)[];
	/** App data for UIs and logs; never sent to the model. */
	details?: TDetails;
	isError: boolean;
	timestamp: number;
}

export type Message = UserMessage | AssistantMessage | ToolResultMessage;

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

/**
 * The events of one streamed assistant reply.
 *
 * Protocol (guaranteed by `AssistantMessageWriter`, checked by `assertEventProtocol`):
 * `start` comes first; each block gets `*_start`, `*_delta`s and `*_end` with its `contentIndex`;
 * exactly one terminal event (`done` or `error`) comes last. `partial` is the live message being
 * built: the same object on every event, not a copy.
 */
export type AssistantMessageEvent =
	| { type: "start"; partial: AssistantMessage }
	| { type: "text_start"; contentIndex: number; partial: AssistantMessage }
	/**
	 * `partialOutput`: with `options.output`, the reply's JSON parsed so far, a live value that only
	 * grows. It is a getter, parsed when read (each character once), so a consumer that never reads
	 * it pays for one `JSON.parse` at the end instead; `JSON.stringify` and spread leave it out.
	 */
	| { type: "text_delta"; contentIndex: number; delta: string; partial: AssistantMessage; partialOutput?: unknown }
	| { type: "text_end"; contentIndex: number; content: string; partial: AssistantMessage }
	| { type: "thinking_start"; contentIndex: number; partial: AssistantMessage }
	| { type: "thinking_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
	| { type: "thinking_end"; contentIndex: number; content: string; partial: AssistantMessage }
	| { type: "toolcall_start"; contentIndex: number; partial: AssistantMessage }
	| { type: "toolcall_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
	| { type: "toolcall_end"; contentIndex: number; toolCall: ToolCall; partial: AssistantMessage }
	| { type: "done"; reason: Extract<StopReason, "stop" | "length" | "toolUse" | "deferred">; message: AssistantMessage }
	| { type: "error"; reason: Extract<StopReason, "error" | "aborted">; error: AssistantMessage };
