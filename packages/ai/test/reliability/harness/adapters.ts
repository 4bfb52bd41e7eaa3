/**
 * One adapter per wire API, so that every reliability case runs against every provider: a model
 * pointed at the replay server, a recorded capture, hand-built streams in the provider's own
 * framing, and the provider's real error bodies (shapes and texts as its API sends them).
 */
import { streamAnthropic } from "../../../src/providers/anthropic-messages.js";
import { streamGoogle } from "../../../src/providers/google-generative-ai.js";
import { streamOpenAICompletions } from "../../../src/providers/openai-completions.js";
import { streamOpenAIResponses } from "../../../src/providers/openai-responses.js";
import { jsonResponse, loadFixture, type ScriptedResponse } from "../../../src/testing/index.js";
import type { Api, Model, StreamFunction, StreamOptions } from "../../../src/types.js";

/** A distinctive fake key: it must never show up in a message, an event or an error. */
export const FAKE_KEY = "sk-RELIABILITY-fake-key-7f3a9c2e1d5b";

/** What a provider's API answers for one HTTP failure, and the text a user must see from it. */
export interface ErrorFixture {
	response: ScriptedResponse;
	/** The provider's own message, which the final `errorMessage` must contain. */
	providerMessage: string;
}

export interface ProviderAdapter {
	api: Api;
	/** The provider's stream function, called directly. */
	stream: StreamFunction<any, StreamOptions>;
	/** A model of this API whose `baseUrl` is `origin` (the replay server). */
	model(origin: string): Model<Api>;
	/** The recorded `text-basic` capture of this API. */
	fixture: Buffer;
	/** Bytes found in the capture's first text event: mid-stream cuts go right after that event. */
	firstTextMarker: string;
	/** The text that has arrived once the event holding {@link firstTextMarker} was read. */
	firstText: string;
	/** A complete stream of this API whose reply is `text`, in its own framing. */
	textStream(text: string): string;
	/** The first event of {@link textStream} that carries text, for streams with faults after it. */
	textEvents(text: string): { head: string; tail: string };
	/** A complete stream of one tool call whose arguments JSON arrives in these fragments. */
	toolCallStream(id: string, name: string, argumentFragments: string[]): string;
	/** An error event inside a 200 stream, as this API sends one, carrying `message`. */
	streamError(message: string): string;
	/** One SSE event whose `data:` is not JSON, framed as this API frames events. */
	malformedEvent: string;
	/** An error answer of this API with HTTP `status`, kind and message. */
	error(status: number, kind: "rate_limit" | "server" | "overloaded" | "auth" | "permission" | "not_found", message: string, headers?: Record<string, string>): ErrorFixture;
	/** The API's real answer to a prompt that does not fit the context window. */
	contextOverflow: ErrorFixture;
	/** The API's real answer to an unknown model id. */
	unknownModel: ErrorFixture;
	/** The header that carries the key, and its expected value. */
	keyHeader: [name: string, value: string];
}

const ZERO_COST = { input: 1, output: 2, cacheRead: 0.1, cacheWrite: 1.25 };

function model<TApi extends Api>(api: TApi, provider: string, id: string, baseUrl: string): Model<TApi> {
	return {
		id,
		name: `${id} (reliability)`,
		api,
		provider,
		baseUrl,
		reasoning: false,
		input: ["text", "image"],
		cost: ZERO_COST,
		contextWindow: 128_000,
		maxTokens: 8_192,
	};
}

// -------------------------------------------------------------------------------------------
// anthropic-messages
// -------------------------------------------------------------------------------------------

function anthropicFrame(event: string, data: unknown): string {
	return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

function anthropicText(text: string): { head: string; tail: string } {
	return {
		head:
			anthropicFrame("message_start", { type: "message_start", message: { id: "msg_rel", usage: { input_tokens: 7, output_tokens: 1 } } }) +
			anthropicFrame("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }) +
			anthropicFrame("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } }),
		tail:
			anthropicFrame("content_block_stop", { type: "content_block_stop", index: 0 }) +
			anthropicFrame("message_delta", { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 5 } }) +
			anthropicFrame("message_stop", { type: "message_stop" }),
	};
}

const ANTHROPIC_KINDS = {
	rate_limit: "rate_limit_error",
	server: "api_error",
	overloaded: "overloaded_error",
	auth: "authentication_error",
	permission: "permission_error",
	not_found: "not_found_error",
} as const;

function anthropicError(status: number, type: string, message: string, headers: Record<string, string> = {}): ErrorFixture {
	return {
		response: jsonResponse(status, { type: "error", error: { type, message }, request_id: "req_011CRel1abcdef" }, { "request-id": "req_011CRel1abcdef", ...headers }),
		providerMessage: message,
	};
}

const anthropic: ProviderAdapter = {
	api: "anthropic-messages",
	stream: streamAnthropic as StreamFunction<any, StreamOptions>,
	model: (origin) => model("anthropic-messages", "anthropic", "claude-sonnet-4-5-20250929", origin),
	fixture: loadFixture("anthropic-messages", "text-basic"),
	firstTextMarker: '"text":"Hello"',
	firstText: "Hello",
	textStream: (text) => {
		const { head, tail } = anthropicText(text);
		return head + tail;
	},
	textEvents: anthropicText,
	toolCallStream: (id, name, fragments) =>
		anthropicFrame("message_start", { type: "message_start", message: { id: "msg_rel", usage: { input_tokens: 7, output_tokens: 1 } } }) +
		anthropicFrame("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "tool_use", id, name, input: {} } }) +
		fragments
			.map((partial_json) => anthropicFrame("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json } }))
			.join("") +
		anthropicFrame("content_block_stop", { type: "content_block_stop", index: 0 }) +
		anthropicFrame("message_delta", { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 9 } }) +
		anthropicFrame("message_stop", { type: "message_stop" }),
	streamError: (message) => anthropicFrame("error", { type: "error", error: { details: null, type: "overloaded_error", message }, request_id: "req_rel" }),
	malformedEvent: 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"unterminated\n\n',
	error: (status, kind, message, headers) => anthropicError(status, ANTHROPIC_KINDS[kind], message, headers),
	contextOverflow: anthropicError(400, "invalid_request_error", "prompt is too long: 213462 tokens > 200000 maximum"),
	unknownModel: anthropicError(404, "not_found_error", "model: claude-does-not-exist"),
	keyHeader: ["x-api-key", FAKE_KEY],
};

// -------------------------------------------------------------------------------------------
// openai-completions
// -------------------------------------------------------------------------------------------

function completionsChunk(delta: Record<string, unknown>, finishReason: string | null = null): string {
	return `data: ${JSON.stringify({ id: "chatcmpl-rel", object: "chat.completion.chunk", model: "gpt-4o-mini", choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
}

function completionsText(text: string): { head: string; tail: string } {
	return {
		head: completionsChunk({ role: "assistant", content: text }),
		tail:
			completionsChunk({}, "stop") +
			`data: ${JSON.stringify({ id: "chatcmpl-rel", object: "chat.completion.chunk", choices: [], usage: { prompt_tokens: 7, completion_tokens: 5, total_tokens: 12 } })}\n\n` +
			"data: [DONE]\n\n",
	};
}

/** OpenAI's error body: `{ error: { message, type, param, code } }` (Chat Completions and Responses alike). */
function openAIError(status: number, type: string, code: string | null, message: string, headers: Record<string, string> = {}): ErrorFixture {
	return {
		response: jsonResponse(status, { error: { message, type, param: null, code } }, { "x-request-id": "req_rel0123456789", ...headers }),
		providerMessage: message,
	};
}

const OPENAI_KINDS = {
	rate_limit: ["requests", "rate_limit_exceeded"],
	server: ["server_error", null],
	overloaded: ["server_error", "overloaded_error"],
	auth: ["invalid_request_error", "invalid_api_key"],
	permission: ["invalid_request_error", "unsupported_country_region_territory"],
	not_found: ["invalid_request_error", "model_not_found"],
} as const;

const completions: ProviderAdapter = {
	api: "openai-completions",
	stream: streamOpenAICompletions as StreamFunction<any, StreamOptions>,
	model: (origin) => model("openai-completions", "openai", "gpt-4o-mini", `${origin}/v1`),
	fixture: loadFixture("openai-completions", "text-basic"),
	firstTextMarker: '"content":"The"',
	firstText: "The",
	textStream: (text) => {
		const { head, tail } = completionsText(text);
		return head + tail;
	},
	textEvents: completionsText,
	toolCallStream: (id, name, fragments) =>
		fragments
			.map((args, index) =>
				completionsChunk({
					...(index === 0 ? { role: "assistant" } : {}),
					tool_calls: [{ index: 0, ...(index === 0 ? { id, type: "function" } : {}), function: { ...(index === 0 ? { name } : {}), arguments: args } }],
				}),
			)
			.join("") +
		completionsChunk({}, "tool_calls") +
		"data: [DONE]\n\n",
	streamError: (message) => `data: ${JSON.stringify({ error: { message, type: "server_error", code: "internal_error" } })}\n\n`,
	malformedEvent: 'data: {"id":"chatcmpl-rel","choices":[{"index":0,"delta":{"content":"x"\n\n',
	error: (status, kind, message, headers) => openAIError(status, OPENAI_KINDS[kind][0], OPENAI_KINDS[kind][1], message, headers),
	contextOverflow: openAIError(
		400,
		"invalid_request_error",
		"context_length_exceeded",
		"This model's maximum context length is 128000 tokens. However, your messages resulted in 130415 tokens. Please reduce the length of the messages.",
	),
	unknownModel: openAIError(404, "invalid_request_error", "model_not_found", "The model `gpt-does-not-exist` does not exist or you do not have access to it."),
	keyHeader: ["authorization", `Bearer ${FAKE_KEY}`],
};

// -------------------------------------------------------------------------------------------
// openai-responses
// -------------------------------------------------------------------------------------------

function responsesFrame(data: Record<string, unknown>): string {
	return `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`;
}

function responsesText(text: string): { head: string; tail: string } {
	const response = { id: "resp_rel", object: "response", status: "in_progress", model: "gpt-4o" };
	const item = { id: "msg_rel", type: "message", status: "in_progress", role: "assistant", content: [] };
	return {
		head:
			responsesFrame({ type: "response.created", sequence_number: 0, response }) +
			responsesFrame({ type: "response.output_item.added", sequence_number: 1, output_index: 0, item }) +
			responsesFrame({ type: "response.output_text.delta", sequence_number: 2, item_id: "msg_rel", output_index: 0, content_index: 0, delta: text }),
		tail:
			responsesFrame({
				type: "response.output_item.done",
				sequence_number: 3,
				output_index: 0,
				item: { ...item, status: "completed", content: [{ type: "output_text", text, annotations: [] }] },
			}) +
			responsesFrame({
				type: "response.completed",
				sequence_number: 4,
				response: { ...response, status: "completed", usage: { input_tokens: 7, output_tokens: 5, total_tokens: 12 } },
			}),
	};
}

const responses: ProviderAdapter = {
	api: "openai-responses",
	stream: streamOpenAIResponses as StreamFunction<any, StreamOptions>,
	model: (origin) => model("openai-responses", "openai", "gpt-4o", `${origin}/v1`),
	fixture: loadFixture("openai-responses", "text-basic"),
	firstTextMarker: '"delta":"420"',
	firstText: "420",
	textStream: (text) => {
		const { head, tail } = responsesText(text);
		return head + tail;
	},
	textEvents: responsesText,
	toolCallStream: (id, name, fragments) => {
		const response = { id: "resp_rel", object: "response", status: "in_progress", model: "gpt-4o" };
		const item = { id: "fc_rel", type: "function_call", status: "in_progress", call_id: id, name, arguments: "" };
		return (
			responsesFrame({ type: "response.created", sequence_number: 0, response }) +
			responsesFrame({ type: "response.output_item.added", sequence_number: 1, output_index: 0, item }) +
			fragments
				.map((delta, index) => responsesFrame({ type: "response.function_call_arguments.delta", sequence_number: 2 + index, item_id: "fc_rel", output_index: 0, delta }))
				.join("") +
			responsesFrame({ type: "response.output_item.done", sequence_number: 90, output_index: 0, item: { ...item, status: "completed", arguments: fragments.join("") } }) +
			responsesFrame({ type: "response.completed", sequence_number: 91, response: { ...response, status: "completed", usage: { input_tokens: 7, output_tokens: 9, total_tokens: 16 } } })
		);
	},
	streamError: (message) => responsesFrame({ type: "error", sequence_number: 3, code: "server_error", message, param: null }),
	malformedEvent: 'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","output_index":0,"delta":"x\n\n',
	error: (status, kind, message, headers) => openAIError(status, OPENAI_KINDS[kind][0], OPENAI_KINDS[kind][1], message, headers),
	contextOverflow: openAIError(
		400,
		"invalid_request_error",
		"context_length_exceeded",
		"Your input exceeds the context window of this model. Please adjust your input and try again.",
	),
	unknownModel: openAIError(404, "invalid_request_error", "model_not_found", "The model `gpt-does-not-exist` does not exist or you do not have access to it."),
	keyHeader: ["authorization", `Bearer ${FAKE_KEY}`],
};

// -------------------------------------------------------------------------------------------
// google-generative-ai
// -------------------------------------------------------------------------------------------

function geminiChunk(data: unknown): string {
	return `data: ${JSON.stringify(data)}\r\n\r\n`;
}

function geminiText(text: string): { head: string; tail: string } {
	return {
		head: geminiChunk({ candidates: [{ content: { parts: [{ text }], role: "model" }, index: 0 }], responseId: "rel-gemini" }),
		tail: geminiChunk({
			candidates: [{ content: { parts: [{ text: "" }], role: "model" }, finishReason: "STOP", index: 0 }],
			usageMetadata: { promptTokenCount: 7, candidatesTokenCount: 5, totalTokenCount: 12 },
			responseId: "rel-gemini",
		}),
	};
}

const GOOGLE_STATUS: Record<number, string> = {
	400: "INVALID_ARGUMENT",
	401: "UNAUTHENTICATED",
	403: "PERMISSION_DENIED",
	404: "NOT_FOUND",
	429: "RESOURCE_EXHAUSTED",
	500: "INTERNAL",
	502: "UNAVAILABLE",
	503: "UNAVAILABLE",
	529: "UNAVAILABLE",
};

/**
 * Google's error body: `{ error: { code, message, status } }`, pretty-printed over several lines as
 * the REST API sends it on streamGenerateContent.
 */
function googleError(status: number, message: string, headers: Record<string, string> = {}): ErrorFixture {
	const body = JSON.stringify({ error: { code: status, message, status: GOOGLE_STATUS[status] ?? "UNKNOWN" } }, null, 2);
	return {
		response: { status, body: `${body}\n`, headers: { "content-type": "application/json; charset=UTF-8", ...headers } },
		providerMessage: message,
	};
}

const google: ProviderAdapter = {
	api: "google-generative-ai",
	stream: streamGoogle as StreamFunction<any, StreamOptions>,
	model: (origin) => model("google-generative-ai", "google", "gemini-2.5-flash", `${origin}/v1beta`),
	fixture: loadFixture("google-generative-ai", "text-basic"),
	firstTextMarker: '"text": "The"',
	firstText: "The",
	textStream: (text) => {
		const { head, tail } = geminiText(text);
		return head + tail;
	},
	textEvents: geminiText,
	// Gemini sends a call's arguments whole, as an object; the fragments are joined and parsed here.
	toolCallStream: (id, name, fragments) =>
		`data: {"candidates":[{"content":{"parts":[{"functionCall":{"id":${JSON.stringify(id)},"name":${JSON.stringify(name)},"args":${fragments.join("")}}}],"role":"model"},"finishReason":"STOP","index":0}],"responseId":"rel-gemini"}\r\n\r\n`,
	streamError: (message) => geminiChunk({ error: { code: 500, message, status: "INTERNAL" } }),
	malformedEvent: 'data: {"candidates": [{"content": {"parts": [{"text": "x"}\r\n\r\n',
	error: (status, _kind, message, headers) => googleError(status, message, headers),
	contextOverflow: googleError(400, "The input token count (1200293) exceeds the maximum number of tokens allowed (1048576)."),
	unknownModel: googleError(
		404,
		"models/gemini-does-not-exist is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.",
	),
	keyHeader: ["x-goog-api-key", FAKE_KEY],
};

/** Every wire API with a provider, in a stable order. */
export const ADAPTERS: readonly ProviderAdapter[] = [anthropic, completions, responses, google];
