import { resolveCacheRetention } from "../../cache-retention.js";
import type { Context, Model } from "../../types.js";
import { applyAnthropicCacheControl, cacheControlFor } from "./cache-control.js";
import { convertMessages } from "./convert-messages.js";
import { convertTools } from "./convert-tools.js";
import type { ResolvedOpenAICompletionsCompat } from "./detect-compat.js";
import { detectServer } from "./detect-server.js";
import { applyReasoning, applyRouting } from "./reasoning-params.js";
import { outputContext, responseFormat } from "./response-format.js";
import type { OpenAICompletionsOptions } from "./options.js";
import type { WireRequest } from "./wire-types.js";

/** Everything one HTTP request needs. */
export interface CompletionsRequest {
	url: string;
	headers: Record<string, string>;
	body: WireRequest;
}

/**
 * Builds the `POST {baseUrl}/chat/completions` request for `model`.
 *
 * Body: `model`, the converted `messages`, `stream: true`, and only what applies:
 * `stream_options.include_usage` (`supportsUsageInStreaming`), the output limit in
 * `compat.maxTokensField`, `temperature`, `tools` (+ `strict` where supported, + `tool_stream`
 * with `zaiToolStream`), `tool_choice`, Anthropic `cache_control` breakpoints
 * (`cacheControlFormat: "anthropic"`, see `applyAnthropicCacheControl`),
 * `reasoning_effort` (reasoning models on servers that take it), `store: false` (OpenAI),
 * `metadata` with `store: true` (only with `supportsMetadata`), `prompt_cache_key` from
 * `sessionId` and `prompt_cache_retention: "24h"` for `cacheRetention: "long"`
 * (`supportsPromptCacheKey`, unless `cacheRetention` is `none`), and `response_format` for
 * `options.output` (see `responseFormat`; a schema strict mode cannot take throws here, before
 * any request).
 *
 * Headers: the key as `Authorization: Bearer …` (Azure: `api-key: …`), none without a key; then
 * `model.headers`; then, with `sendSessionAffinityHeaders` and a `sessionId`, the session id as
 * `session_id`, `x-client-request-id` and `x-session-affinity`; then `options.headers`, each
 * replacing earlier ones case-insensitively.
 */
export function buildRequest(
	model: Model<"openai-completions">,
	context: Context,
	options: OpenAICompletionsOptions | undefined,
	compat: ResolvedOpenAICompletionsCompat,
	apiKey: string | undefined,
): CompletionsRequest {
	return {
		url: chatCompletionsUrl(model.baseUrl),
		headers: buildHeaders(model, options, compat, apiKey),
		body: buildBody(model, context, options ?? {}, compat),
	};
}

function buildBody(
	model: Model<"openai-completions">,
	context: Context,
	options: OpenAICompletionsOptions,
	compat: ResolvedOpenAICompletionsCompat,
): WireRequest {
	const messages = convertMessages(model, outputContext(context, options.output, compat), compat);
	const body: WireRequest = { model: model.id, messages, stream: true };
	if (options.output) body.response_format = responseFormat(options.output, compat);
	if (compat.supportsUsageInStreaming) body.stream_options = { include_usage: true };
	if (options.maxTokens !== undefined) body[compat.maxTokensField] = options.maxTokens;
	if (options.temperature !== undefined) body.temperature = options.temperature;
	if (context.tools && context.tools.length > 0) {
		body.tools = convertTools(context.tools, { supportsStrictMode: compat.supportsStrictMode, strict: options.strictTools });
		if (compat.zaiToolStream) body.tool_stream = true;
	}
	if (options.toolChoice !== undefined) body.tool_choice = options.toolChoice;
	const retention = resolveCacheRetention(options.cacheRetention);
	const cacheControl = cacheControlFor(compat, retention);
	if (cacheControl) applyAnthropicCacheControl(body.messages, body.tools, cacheControl);
	applyReasoning(body, model, options, compat);
	applyRouting(body, model, compat);
	// OpenAI keeps chat completions only when asked; say so explicitly so an account-level default
	// does not store them.
	if (compat.supportsStore) body.store = false;
	const metadata = options.metadata && compat.supportsMetadata ? stringValues(options.metadata) : undefined;
	if (metadata) {
		body.metadata = metadata;
		// OpenAI: "The 'metadata' parameter is only allowed when 'store' is enabled."
		if (compat.supportsStore) body.store = true;
	}
	if (compat.supportsPromptCacheKey && options.sessionId && retention !== "none") {
		body.prompt_cache_key = options.sessionId;
		if (retention === "long" && compat.supportsLongCacheRetention !== false) body.prompt_cache_retention = "24h";
	}
	return body;
}

/** OpenAI metadata values are strings; other values are sent as their JSON text. */
function stringValues(metadata: Record<string, unknown>): Record<string, string> | undefined {
	const entries = Object.entries(metadata).filter(([, value]) => value !== undefined);
	if (entries.length === 0) return undefined;
	return Object.fromEntries(entries.map(([key, value]) => [key, typeof value === "string" ? value : JSON.stringify(value)]));
}

function buildHeaders(
	model: Model<"openai-completions">,
	options: OpenAICompletionsOptions | undefined,
	compat: ResolvedOpenAICompletionsCompat,
	apiKey: string | undefined,
): Record<string, string> {
	const headers: Record<string, string> = {};
	if (apiKey) {
		// Azure OpenAI authenticates keys with `api-key`; Bearer there means an Entra ID token.
		if (detectServer(model) === "azure") headers["api-key"] = apiKey;
		else headers.Authorization = `Bearer ${apiKey}`;
	}
	mergeHeaders(headers, model.headers);
	const sessionId = options?.sessionId;
	if (compat.sendSessionAffinityHeaders && sessionId) mergeHeaders(headers, sessionAffinityHeaders(sessionId));
	mergeHeaders(headers, options?.headers);
	return headers;
}

/**
 * The headers that pin a session to one backend (`compat.sendSessionAffinityHeaders`): the
 * session id under the three names `@mariozechner/pi-ai` sends, so that a gateway set up for
 * it routes requests from here the same way.
 */
function sessionAffinityHeaders(sessionId: string): Record<string, string> {
	return { session_id: sessionId, "x-client-request-id": sessionId, "x-session-affinity": sessionId };
}

/** Adds `extra` over `target`; a name given again in any letter case replaces the earlier one. */
function mergeHeaders(target: Record<string, string>, extra: Record<string, string> | undefined): void {
	if (!extra) return;
	for (const [name, value] of Object.entries(extra)) {
		const lower = name.toLowerCase();
		for (const existing of Object.keys(target)) if (existing.toLowerCase() === lower) delete target[existing];
		target[name] = value;
	}
}

/**
 * `{baseUrl}/chat/completions`, keeping a query string (Azure's `?api-version=…`). A `baseUrl`
 * that already ends in `/chat/completions` is used as it is.
 *
 * @example
 * chatCompletionsUrl("http://localhost:11434/v1/") // "http://localhost:11434/v1/chat/completions"
 */
export function chatCompletionsUrl(baseUrl: string): string {
	let url: URL;
	try {
		url = new URL(baseUrl);
	} catch {
		throw new Error(`Invalid baseUrl "${baseUrl}": expected an absolute URL such as https://api.openai.com/v1`);
	}
	if (!/\/chat\/completions\/?$/.test(url.pathname)) url.pathname = `${url.pathname.replace(/\/+$/, "")}/chat/completions`;
	return url.toString();
}
