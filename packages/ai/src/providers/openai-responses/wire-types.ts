/**
 * The parts of the OpenAI Responses wire format this provider writes and reads. Request types
 * model what we send; stream types model only the fields the stream state machine reads (servers
 * send much more, e.g. `logprobs`, `annotations`, `sequence_number` on every event, full
 * response snapshots, which are ignored).
 */

// ---------------------------------------------------------------------------------------------
// Request
// ---------------------------------------------------------------------------------------------

export interface ResponsesInputText {
	type: "input_text";
	text: string;
}

export interface ResponsesInputImage {
	type: "input_image";
	/** A `data:` URL. */
	image_url: string;
	detail: "auto";
}

/** A user turn, in the short form every Responses-compatible server accepts. */
export interface ResponsesUserMessage {
	role: "user";
	content: (ResponsesInputText | ResponsesInputImage)[];
}

/** Assistant text without an item id (another model's, or older history): the short form. */
export interface ResponsesAssistantText {
	role: "assistant";
	content: string;
}

/** Assistant text replayed to the model that wrote it, as the output `message` item it was. */
export interface ResponsesOutputMessage {
	type: "message";
	role: "assistant";
	id: string;
	status: "completed";
	content: { type: "output_text"; text: string; annotations: [] }[];
	/** `commentary` (a preamble before tool calls) or `final_answer`, as the model labelled it. */
	phase?: string;
}

/** A reasoning item as the server sent it; replayed unchanged to the same model. */
export interface ResponsesReasoningItem {
	type: "reasoning";
	id: string;
	encrypted_content?: string | null;
	summary?: { type: "summary_text"; text: string }[];
	content?: { type: "reasoning_text"; text: string }[];
	[key: string]: unknown;
}

export interface ResponsesFunctionCall {
	type: "function_call";
	call_id: string;
	name: string;
	/** JSON text of the arguments. */
	arguments: string;
	/** The item id (`fc_…`), only when replaying to the same model. */
	id?: string;
}

export interface ResponsesFunctionCallOutput {
	type: "function_call_output";
	call_id: string;
	/** Plain text, or input parts when the result holds images. */
	output: string | (ResponsesInputText | ResponsesInputImage)[];
}

export type ResponsesInputItem =
	| ResponsesUserMessage
	| ResponsesAssistantText
	| ResponsesOutputMessage
	| ResponsesReasoningItem
	| ResponsesFunctionCall
	| ResponsesFunctionCallOutput;

export interface ResponsesFunctionTool {
	type: "function";
	name: string;
	description: string;
	parameters: unknown;
	strict: false;
}

export type ResponsesToolChoice = "auto" | "none" | "required" | { type: "function"; name: string };

export type ResponsesReasoningEffort = "none" | "minimal" | "low" | "medium" | "high" | "xhigh";

export type ResponsesReasoningSummary = "auto" | "concise" | "detailed";

export type ResponsesServiceTier = "auto" | "default" | "flex" | "priority" | "scale";

/** The request body of `POST {baseUrl}/responses` as this provider builds it. */
export interface ResponsesRequestBody {
	model: string;
	input: ResponsesInputItem[];
	stream: true;
	store: boolean;
	instructions?: string;
	background?: boolean;
	temperature?: number;
	max_output_tokens?: number;
	tools?: ResponsesFunctionTool[];
	tool_choice?: ResponsesToolChoice;
	reasoning?: { effort: ResponsesReasoningEffort; summary?: ResponsesReasoningSummary };
	include?: "reasoning.encrypted_content"[];
	prompt_cache_key?: string;
	prompt_cache_retention?: "24h";
	metadata?: Record<string, string>;
	service_tier?: ResponsesServiceTier;
	/** Structured output: the JSON Schema the reply's text must match. */
	text?: { format: ResponsesTextFormat };
}

/** `text.format` for structured output (strict mode). */
export interface ResponsesTextFormat {
	type: "json_schema";
	name: string;
	description?: string;
	schema: Record<string, unknown>;
	strict: true;
}

// ---------------------------------------------------------------------------------------------
// Stream
// ---------------------------------------------------------------------------------------------

export interface ResponsesUsage {
	input_tokens?: number;
	output_tokens?: number;
	total_tokens?: number;
	input_tokens_details?: { cached_tokens?: number | null } | null;
	output_tokens_details?: { reasoning_tokens?: number | null } | null;
}

/** The response snapshot carried by lifecycle events. */
export interface ResponsesResponse {
	id?: string;
	/** The model that answered (a dated snapshot of an alias, say). */
	model?: string;
	status?: string;
	background?: boolean | null;
	usage?: ResponsesUsage | null;
	incomplete_details?: { reason?: string | null } | null;
	error?: { code?: string | null; message?: string | null } | null;
}

/** An output item, as `response.output_item.added` / `.done` carry it. */
export interface ResponsesOutputItem {
	type: string;
	id?: string;
	// message
	phase?: string | null;
	content?: { type: string; text?: string; refusal?: string }[];
	// reasoning
	summary?: { type: string; text?: string }[];
	encrypted_content?: string | null;
	// function_call
	call_id?: string;
	name?: string;
	arguments?: string;
}

/** Any stream event, with the fields of every kind this provider reads, all optional. */
export interface ResponsesStreamEvent {
	type: string;
	sequence_number?: number;
	output_index?: number;
	item_id?: string;
	content_index?: number;
	summary_index?: number;
	delta?: string;
	text?: string;
	refusal?: string;
	arguments?: string;
	item?: ResponsesOutputItem;
	response?: ResponsesResponse;
	// `error` event: OpenAI documents top-level fields; some captures nest them under `error`.
	code?: string | null;
	message?: string | null;
	error?: { type?: string | null; code?: string | null; message?: string | null } | null;
}
