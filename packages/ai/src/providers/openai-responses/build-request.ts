import { resolveCacheRetention } from "../../cache-retention.js";
import { outputJsonSchema, outputName } from "../../structured-output/output-schema.js";
import { strictOutputSchema } from "../../structured-output/strict-output-schema.js";
import type { Api, Context, Model, OutputOptions } from "../../types.js";
import { convertMessages } from "./convert-messages.js";
import { convertTools } from "./convert-tools.js";
import type { OpenAIResponsesOptions } from "./options.js";
import type { ResponsesRequestBody, ResponsesTextFormat } from "./wire-types.js";

/** What `postEventStream` needs, before `onPayload` had its say. */
export interface ResponsesRequest {
	url: string;
	headers: Record<string, string>;
	body: ResponsesRequestBody;
}

/**
 * Builds the `POST {baseUrl}/responses` request: URL, headers and body.
 *
 * - `instructions` carries the system prompt (OpenAI accepts it for reasoning models too, as the
 *   developer message); `input` the converted transcript; `stream: true`; `store` default `false`.
 * - `reasoning: { effort, summary }` and `include: ["reasoning.encrypted_content"]` only when
 *   `reasoningEffort` is set and the model can reason, so that reasoning survives a stateless replay.
 * - `prompt_cache_key` from `sessionId` (unless `cacheRetention` is `none`), and
 *   `prompt_cache_retention: "24h"` for `cacheRetention: "long"`, unless
 *   `model.compat.supportsPromptCacheKey` is `false`.
 * - Headers: `Authorization: Bearer <apiKey>` (when there is a key), then `model.headers`, then
 *   with a `sessionId` the id as `session_id` (unless `model.compat.sendSessionIdHeader` is
 *   `false`) and `x-client-request-id`, then `options.headers`, each overriding the one before.
 *
 * @example
 * const { url, headers, body } = buildRequest(model, context, { sessionId: "s1" }, "sk-…");
 */
export function buildRequest(
	model: Model<Api>,
	context: Context,
	options: OpenAIResponsesOptions = {},
	apiKey?: string,
): ResponsesRequest {
	const compat = model.api === "openai-responses" ? (model as Model<"openai-responses">).compat : undefined;
	const store = options.store ?? false;
	const body: ResponsesRequestBody = {
		model: model.id,
		input: convertMessages(context.messages, model, { store }),
		stream: true,
		store,
	};
	if (context.systemPrompt) body.instructions = context.systemPrompt;
	// `deferred` runs the response as a background job, whose stream the caller leaves after its id.
	if (options.deferred) body.background = true;
	else if (options.background !== undefined) body.background = options.background;
	if (options.temperature !== undefined) body.temperature = options.temperature;
	if (options.maxTokens !== undefined) body.max_output_tokens = options.maxTokens;
	if (context.tools && context.tools.length > 0) body.tools = convertTools(context.tools);
	if (options.toolChoice !== undefined) body.tool_choice = options.toolChoice;
	if (model.reasoning && options.reasoningEffort !== undefined) {
		const summary = options.reasoningSummary === undefined ? "auto" : options.reasoningSummary;
		body.reasoning =
			summary !== null && compat?.supportsReasoningSummary !== false
				? { effort: options.reasoningEffort, summary }
				: { effort: options.reasoningEffort };
		body.include = ["reasoning.encrypted_content"];
	}
	const retention = resolveCacheRetention(options.cacheRetention);
	if (compat?.supportsPromptCacheKey !== false && retention !== "none") {
		if (options.sessionId) body.prompt_cache_key = options.sessionId;
		if (retention === "long" && compat?.supportsLongCacheRetention !== false) body.prompt_cache_retention = "24h";
	}
	const metadata = wireMetadata(options.metadata);
	if (metadata) body.metadata = metadata;
	if (options.serviceTier !== undefined && options.serviceTier !== null) body.service_tier = options.serviceTier;
	if (options.output) body.text = { format: textFormat(options.output) };

	const session = options.sessionId ? sessionHeaders(options.sessionId, compat?.sendSessionIdHeader !== false) : undefined;
	return { url: responsesUrl(model), headers: requestHeaders(model, apiKey, options.headers, session), body };
}

/**
 * The session headers of a request with a `sessionId`: `x-client-request-id` always, and
 * `session_id` unless `compat.sendSessionIdHeader` is `false` (for servers that reject it).
 */
function sessionHeaders(sessionId: string, sendSessionId: boolean): Record<string, string> {
	return sendSessionId ? { session_id: sessionId, "x-client-request-id": sessionId } : { "x-client-request-id": sessionId };
}

/** `{baseUrl}/responses`, or `{baseUrl}/responses/{id}` for one stored response. */
export function responsesUrl(model: Model<Api>, responseId?: string): string {
	const base = `${model.baseUrl.replace(/\/+$/, "")}/responses`;
	return responseId === undefined ? base : `${base}/${encodeURIComponent(responseId)}`;
}

/**
 * `Authorization: Bearer <apiKey>` (when there is a key), then `model.headers`, then `session`
 * (the session headers of a new response), then `headers`.
 */
export function requestHeaders(
	model: Model<Api>,
	apiKey: string | undefined,
	headers: Record<string, string> | undefined,
	session?: Record<string, string>,
): Record<string, string> {
	return mergeHeaders(apiKey ? { Authorization: `Bearer ${apiKey}` } : undefined, model.headers, session, headers);
}

/**
 * Responses `metadata` is a map of strings: strings pass as they are, other values are written as
 * JSON (`3` → `"3"`, `true` → `"true"`); `null` and `undefined` values are left out.
 */
function wireMetadata(metadata: Record<string, unknown> | undefined): Record<string, string> | undefined {
	if (!metadata) return undefined;
	const result: Record<string, string> = {};
	let any = false;
	for (const [key, value] of Object.entries(metadata)) {
		if (value === undefined || value === null) continue;
		result[key] = typeof value === "string" ? value : JSON.stringify(value);
		any = true;
	}
	return any ? result : undefined;
}

/** Merges header maps left to right; a later name replaces an earlier one that differs only in case. */
function mergeHeaders(...sources: (Record<string, string> | undefined)[]): Record<string, string> {
	const headers: Record<string, string> = {};
	const names = new Map<string, string>();
	for (const source of sources) {
		if (!source) continue;
		for (const [name, value] of Object.entries(source)) {
			const lower = name.toLowerCase();
			const previous = names.get(lower);
			if (previous !== undefined) delete headers[previous];
			names.set(lower, name);
			headers[name] = value;
		}
	}
	return headers;
}

/**
 * `text.format` for `options.output`: `{ type: "json_schema", name, description?, schema, strict: true }`,
 * the schema in OpenAI strict form. Throws, naming the construct, for a schema strict mode cannot take.
 *
 * @example
 * textFormat({ schema: Type.Object({ a: Type.String() }) }) // { type: "json_schema", name: "output", schema: {…}, strict: true }
 */
export function textFormat(output: OutputOptions): ResponsesTextFormat {
	return {
		type: "json_schema",
		name: outputName(output),
		...(output.description !== undefined ? { description: output.description } : {}),
		schema: strictOutputSchema(outputJsonSchema(output), "OpenAI strict mode (text.format)"),
		strict: true,
	};
}
