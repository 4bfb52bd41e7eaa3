/**
 * The parts of the Anthropic Messages wire format this provider writes and reads. Request types
 * model what we send; stream types model only the fields the stream state machine reads (the
 * server sends more, e.g. `service_tier`, `cache_creation`, `caller`, which are ignored).
 */

/** A prompt-cache breakpoint. `ttl` is omitted for the default five minutes. */
export interface AnthropicCacheControl {
	type: "ephemeral";
	ttl?: "1h";
}

/** A text block, in system, user or assistant content. */
export interface AnthropicTextBlock {
	type: "text";
	text: string;
	cache_control?: AnthropicCacheControl;
}

/** An image sent inline as base64. */
export interface AnthropicImageBlock {
	type: "image";
	source: { type: "base64"; media_type: string; data: string };
	cache_control?: AnthropicCacheControl;
}

/** Replayed thinking: the text and the signature that lets the model verify it. */
export interface AnthropicThinkingBlock {
	type: "thinking";
	thinking: string;
	signature: string;
}

/** Replayed redacted thinking: the encrypted reasoning as the model sent it. */
export interface AnthropicRedactedThinkingBlock {
	type: "redacted_thinking";
	data: string;
}

/** A client tool call in assistant content. */
export interface AnthropicToolUseBlock {
	type: "tool_use";
	id: string;
	name: string;
	input: Record<string, unknown>;
	cache_control?: AnthropicCacheControl;
}

/** The result of a tool call, in the user turn after it. */
export interface AnthropicToolResultBlock {
	type: "tool_result";
	tool_use_id: string;
	/** Omitted when the result has no content: the API rejects empty text blocks. */
	content?: (AnthropicTextBlock | AnthropicImageBlock)[];
	is_error?: true;
	cache_control?: AnthropicCacheControl;
}

/** Blocks a user turn may hold. */
export type AnthropicUserBlock = AnthropicTextBlock | AnthropicImageBlock | AnthropicToolResultBlock;
/** Blocks an assistant turn may hold. */
export type AnthropicAssistantBlock =
	| AnthropicTextBlock
	| AnthropicThinkingBlock
	| AnthropicRedactedThinkingBlock
	| AnthropicToolUseBlock;

/** One turn of `messages`. */
export type AnthropicMessageParam =
	| { role: "user"; content: AnthropicUserBlock[] }
	| { role: "assistant"; content: AnthropicAssistantBlock[] };

/** A tool definition. */
export interface AnthropicTool {
	name: string;
	description: string;
	/** Fine-grained tool streaming: the input streams without buffering or JSON validation. */
	eager_input_streaming?: true;
	/** The tool's JSON Schema, sent whole (`$defs`, `anyOf`, `additionalProperties` kept). */
	input_schema: unknown;
}

/** Which tools the model may or must call. */
export type AnthropicToolChoice =
	| { type: "auto" }
	| { type: "any" }
	| { type: "none" }
	| { type: "tool"; name: string };

/** Budget-based (`enabled`) or model-decided (`adaptive`) extended thinking. */
export type AnthropicThinkingParam =
	| { type: "enabled"; budget_tokens: number; display?: "summarized" | "omitted" }
	| { type: "adaptive"; display?: "summarized" | "omitted" };

/** The body of `POST /v1/messages` as this provider builds it. */
export interface AnthropicRequestBody {
	model: string;
	max_tokens: number;
	stream: true;
	system?: AnthropicTextBlock[];
	messages: AnthropicMessageParam[];
	tools?: AnthropicTool[];
	tool_choice?: AnthropicToolChoice;
	temperature?: number;
	thinking?: AnthropicThinkingParam;
	output_config?: { effort?: string; format?: { type: "json_schema"; schema: Record<string, unknown> } };
	metadata?: { user_id: string };
}

/** Token counts as the wire reports them; any field may be absent (or null from some proxies). */
export interface AnthropicWireUsage {
	input_tokens?: number | null;
	output_tokens?: number | null;
	cache_read_input_tokens?: number | null;
	cache_creation_input_tokens?: number | null;
}

/** A content block as `content_block_start` announces it. */
export interface AnthropicWireContentBlock {
	type: string;
	text?: string;
	thinking?: string;
	signature?: string;
	/** `redacted_thinking`: the encrypted reasoning. */
	data?: string;
	id?: string;
	name?: string;
	input?: unknown;
}

/** The `delta` of a `content_block_delta` event. */
export interface AnthropicWireDelta {
	type: string;
	text?: string;
	thinking?: string;
	signature?: string;
	partial_json?: string;
}

/** One parsed `data:` payload of the stream. */
export interface AnthropicStreamEvent {
	type: string;
	index?: number;
	/** `message_start` only; `model` is the model that answered. */
	message?: { id?: string; model?: string; usage?: AnthropicWireUsage };
	content_block?: AnthropicWireContentBlock;
	delta?: AnthropicWireDelta & {
		stop_reason?: string | null;
		stop_details?: { type?: string; category?: string; explanation?: string } | null;
	};
	usage?: AnthropicWireUsage;
	error?: { type?: string; message?: string };
}
