import { outputInstruction, outputJsonSchema } from "../../structured-output/output-schema.js";
import type { Api, Context, Model } from "../../types.js";
import { convertMessages } from "./convert-messages.js";
import { convertTools, mapToolChoice } from "./convert-tools.js";
import { toOpenApiSchema } from "./openapi-schema.js";
import { resolveGoogleCompat } from "./google-compat.js";
import type { GoogleOptions } from "./google-options.js";
import { buildThinkingConfig } from "./thinking-config.js";
import type { GeminiGenerationConfig, GeminiRequest } from "./wire-types.js";

/** The Gemini API root used when a model has no `baseUrl`. */
export const GEMINI_BASE_URL = "https://generativelanguage.googleapis.com/v1beta";

/** Everything `postEventStream` needs for one Gemini call, before `onPayload`. */
export interface GeminiHttpRequest {
	url: string;
	headers: Record<string, string>;
	body: GeminiRequest;
}

/**
 * The streaming endpoint of `model`: `${baseUrl}/models/${id}:streamGenerateContent?alt=sse`
 * (`alt=sse` makes Gemini answer with server-sent events instead of one JSON array). A trailing
 * slash of `baseUrl` and a `models/` prefix of the id are tolerated. The API key is never put in
 * the URL: it travels in the `x-goog-api-key` header.
 */
export function streamUrl(model: Model<Api>): string {
	const base = (model.baseUrl || GEMINI_BASE_URL).replace(/\/+$/, "");
	const id = model.id.replace(/^models\//, "");
	return `${base}/models/${id}:streamGenerateContent?alt=sse`;
}

/**
 * Builds the URL, headers and body of a Gemini `streamGenerateContent` call.
 *
 * Headers: `x-goog-api-key`, then `model.headers`, then `options.headers` (last wins).
 * Body: `contents` (see `convertMessages`), `systemInstruction: { parts: [{ text }] }` when there
 * is a system prompt, `tools` + `toolConfig.functionCallingConfig.mode` (only with tools),
 * `generationConfig { temperature, maxOutputTokens, thinkingConfig }` with only the fields set,
 * plus `responseMimeType: "application/json"` and `responseJsonSchema` (or `responseSchema` in the
 * OpenAPI subset, with `compat.toolSchemaField: "parameters"`) for `options.output`; beside
 * tools on Gemini 2.x (`compat.jsonResponseWithTools` false), the schema goes in the system
 * instruction instead.
 *
 * @example
 * const { url, headers, body } = buildRequest(model, { systemPrompt: "Be brief.", messages }, { temperature: 0 }, apiKey);
 */
export function buildRequest(
	model: Model<Api>,
	context: Context,
	options: GoogleOptions | undefined,
	apiKey: string,
): GeminiHttpRequest {
	const compat = resolveGoogleCompat(model);
	const body: GeminiRequest = { contents: convertMessages(model, context.messages, compat) };
	if (context.systemPrompt) body.systemInstruction = { parts: [{ text: context.systemPrompt }] };

	const tools = convertTools(context.tools, compat.toolSchemaField);
	if (tools) {
		body.tools = tools;
		if (options?.toolChoice) body.toolConfig = { functionCallingConfig: { mode: mapToolChoice(options.toolChoice) } };
	}

	const generationConfig: GeminiGenerationConfig = {};
	if (options?.temperature !== undefined) generationConfig.temperature = options.temperature;
	if (options?.maxTokens !== undefined) generationConfig.maxOutputTokens = options.maxTokens;
	const thinkingConfig = buildThinkingConfig(options?.thinking, compat);
	if (thinkingConfig) generationConfig.thinkingConfig = thinkingConfig;
	if (options?.output) {
		const schema = outputJsonSchema(options.output);
		if (tools && !compat.jsonResponseWithTools) {
			// Gemini 2.x refuses a JSON response type beside function declarations: ask in words.
			const instruction = outputInstruction(options.output);
			const parts = body.systemInstruction?.parts ?? [];
			body.systemInstruction = { parts: [...parts, { text: instruction }] };
		} else {
			// The same choice as for tool schemas: full JSON Schema, or the OpenAPI subset for servers
			// that only know that.
			generationConfig.responseMimeType = "application/json";
			if (compat.toolSchemaField === "parameters") generationConfig.responseSchema = toOpenApiSchema(outputJsonSchema(options.output, "openapi-3.0"));
			else generationConfig.responseJsonSchema = schema;
		}
	}
	if (Object.keys(generationConfig).length > 0) body.generationConfig = generationConfig;

	const headers: Record<string, string> = { "x-goog-api-key": apiKey, ...model.headers, ...options?.headers };
	return { url: streamUrl(model), headers, body };
}
