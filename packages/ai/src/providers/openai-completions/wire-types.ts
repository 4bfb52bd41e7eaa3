/**
 * The parts of the Chat Completions wire format this provider writes and reads. Only the fields
 * the code uses are modelled; servers add many more (`obfuscation`, `x_groq`, vLLM's
 * `stop_reason`, Azure's `content_filter_results`, OpenRouter's `provider`), which are ignored.
 */

export interface WireTextPart {
	type: "text";
	text: string;
	/** An Anthropic prompt-cache breakpoint (`compat.cacheControlFormat: "anthropic"`). */
	cache_control?: WireCacheControl;
}

/** Anthropic's cache breakpoint, as OpenRouter passes it on to Claude models. */
export interface WireCacheControl {
	type: "ephemeral";
	ttl?: "1h";
}

export interface WireImagePart {
	type: "image_url";
	image_url: { url: string };
}

/** Mistral's reasoning part, in streamed deltas and in replayed assistant messages. */
export interface WireThinkingPart {
	type: "thinking";
	thinking: WireTextPart[];
}

export interface WireToolCall {
	id: string;
	type: "function";
	function: { name: string; arguments: string };
}

export interface WireSystemMessage {
	role: "system" | "developer";
	/** A string; a text part only to carry a cache breakpoint. */
	content: string | WireTextPart[];
}

export interface WireUserMessage {
	role: "user";
	content: string | (WireTextPart | WireImagePart)[];
}

export interface WireAssistantMessage {
	role: "assistant";
	content: string | (WireTextPart | WireThinkingPart)[] | null;
	tool_calls?: WireToolCall[];
	/** DeepSeek, xAI, llama.cpp, vLLM: the reasoning of this turn. */
	reasoning_content?: string;
	/** OpenRouter, Ollama: the reasoning of this turn. */
	reasoning?: string;
}

export interface WireToolMessage {
	role: "tool";
	tool_call_id: string;
	content: string;
	/** Mistral wants the function name on tool results. */
	name?: string;
}

export type WireMessage = WireSystemMessage | WireUserMessage | WireAssistantMessage | WireToolMessage;

export interface WireTool {
	type: "function";
	function: {
		name: string;
		description: string;
		parameters: unknown;
		strict?: boolean;
	};
	/** An Anthropic prompt-cache breakpoint on the last tool (`compat.cacheControlFormat: "anthropic"`). */
	cache_control?: WireCacheControl;
}

export type WireToolChoice = "auto" | "none" | "required" | { type: "function"; function: { name: string } };

/** The request body of `POST /chat/completions` as this provider builds it. */
/** Chat Completions `response_format`: a JSON Schema (structured outputs) or JSON mode. */
export type WireResponseFormat =
	| { type: "json_schema"; json_schema: { name: string; description?: string; schema: Record<string, unknown>; strict?: boolean } }
	| { type: "json_object" };

export interface WireRequest {
	model: string;
	messages: WireMessage[];
	stream: true;
	response_format?: WireResponseFormat;
	stream_options?: { include_usage: true };
	max_tokens?: number;
	max_completion_tokens?: number;
	temperature?: number;
	tools?: WireTool[];
	tool_choice?: WireToolChoice;
	/** z.ai: stream tool-call arguments (`compat.zaiToolStream`). */
	tool_stream?: boolean;
	reasoning_effort?: string;
	store?: boolean;
	metadata?: Record<string, string>;
	prompt_cache_key?: string;
	prompt_cache_retention?: string;
	/** Reasoning as a nested object (OpenRouter). */
	reasoning?: { effort: string };
	/** DeepSeek's thinking switch. */
	thinking?: { type: "enabled" | "disabled" };
	/** z.ai and Qwen's thinking switch. */
	enable_thinking?: boolean;
	/** Qwen served through a chat template (vLLM, SGLang). */
	chat_template_kwargs?: { enable_thinking: boolean; preserve_thinking: boolean };
	/** OpenRouter provider routing. */
	provider?: unknown;
	/** Vercel AI Gateway options. */
	providerOptions?: { gateway: unknown };
}

/** Token counts of a chunk's `usage` (or Groq's `x_groq.usage`). */
export interface WireUsage {
	prompt_tokens?: number;
	completion_tokens?: number;
	prompt_tokens_details?: { cached_tokens?: number | null } | null;
	/** DeepSeek's own name for cached prompt tokens. */
	prompt_cache_hit_tokens?: number;
	total_tokens?: number;
	completion_tokens_details?: { reasoning_tokens?: number | null } | null;
}

export interface WireToolCallDelta {
	index?: number;
	id?: string | null;
	function?: { name?: string | null; arguments?: string | null } | null;
}

export interface WireDelta {
	content?: string | (WireTextPart | WireThinkingPart | { type: string })[] | null;
	refusal?: string | null;
	reasoning_content?: string | null;
	reasoning?: string | null;
	tool_calls?: WireToolCallDelta[] | null;
}

export interface WireChoice {
	index?: number;
	delta?: WireDelta | null;
	finish_reason?: string | null;
}

/** One `data:` payload of the stream. */
export interface WireChunk {
	id?: string;
	/** The model that answered (a dated snapshot of an alias, say); Azure's first chunk has `""`. */
	model?: string;
	choices?: WireChoice[] | null;
	usage?: WireUsage | null;
	x_groq?: { usage?: WireUsage | null } | null;
	/** An error reported inside a 200 stream (Groq's `event: error`, OpenRouter mid-stream errors). */
	error?: unknown;
}
