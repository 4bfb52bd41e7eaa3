import { resolveCacheRetention } from "../../cache-retention.js";
import type { AnthropicMessagesCompat, Api, Context, Model, StreamOptions } from "../../types.js";
import { applyCacheControl, cacheControlFor } from "./cache-control.js";
import { convertMessages } from "./convert-messages.js";
import { type AnthropicToolChoiceOption, convertTools, convertToolChoice } from "./convert-tools.js";
import { type AnthropicEffort, omitsThinkingByDefault, supportsAdaptiveThinking } from "./model-features.js";
import { applyOutput } from "./output-format.js";
import type { AnthropicRequestBody, AnthropicThinkingParam } from "./wire-types.js";

/** The Messages API version this provider speaks. */
export const ANTHROPIC_VERSION = "2023-06-01";
/** Needed with an OAuth access token (Claude subscriptions) instead of an API key. */
export const OAUTH_BETA = "oauth-2025-04-20";
/** Thinking between tool calls with budget thinking on Claude 4 models; adaptive thinking has it built in. */
export const INTERLEAVED_THINKING_BETA = "interleaved-thinking-2025-05-14";
/**
 * Fine-grained tool streaming for a whole request, for servers that do not take the per-tool
 * `eager_input_streaming` field (`compat.supportsEagerToolInputStreaming: false`).
 */
export const FINE_GRAINED_TOOL_STREAMING_BETA = "fine-grained-tool-streaming-2025-05-14";
/** The one-hour cache TTL (`ttl: "1h"`); harmless where it is already generally available. */
export const EXTENDED_CACHE_TTL_BETA = "extended-cache-ttl-2025-04-11";
/** Output limit used when neither the caller nor the model gives one. */
export const FALLBACK_MAX_TOKENS = 4096;
/** Default output limit cap: a model's maximum can be far more than a reply needs. */
export const DEFAULT_MAX_TOKENS_CAP = 32_000;
/** Anthropic's smallest accepted `budget_tokens`. */
export const MIN_THINKING_BUDGET = 1024;

/** Whether thinking comes back summarized or is omitted (`thinking.display`). */
export type AnthropicThinkingDisplay = "summarized" | "omitted";

/**
 * Options of the Anthropic Messages provider: the common {@link StreamOptions} plus its own.
 */
export interface AnthropicOptions extends StreamOptions {
	/**
	 * Turn on extended thinking. Models that take adaptive thinking (Opus 4.6, Sonnet 4.6 and
	 * later) get `thinking: { type: "adaptive" }`; older ones get a token budget
	 * (`thinkingBudgetTokens`). Temperature is not sent while thinking (the API requires its default).
	 */
	thinkingEnabled?: boolean;
	/** Budget for budget-based thinking (older models). Default 1024; `max_tokens` is raised above it. */
	thinkingBudgetTokens?: number;
	/** `output_config.effort`, sent whenever set (with or without thinking). */
	effort?: AnthropicEffort;
	/**
	 * Thinking text in responses: `summarized` or `omitted` (signature only). Unset, models that
	 * omit it by default (Opus 4.7 and later) are asked for `summarized`; others get their default.
	 */
	thinkingDisplay?: AnthropicThinkingDisplay;
	/** With budget thinking and tools, send the interleaved-thinking beta. Default `true`. */
	interleavedThinking?: boolean;
	/** `auto`, `any` (must call a tool), `none`, or `{ type: "tool", name }`. Sent only with tools. */
	toolChoice?: AnthropicToolChoiceOption;
	/**
	 * Sends `anthropic-dangerous-direct-browser-access: true`, which Anthropic requires before it
	 * answers a request from a browser origin (CORS). Default `false`: the header is never sent
	 * unless the app opts in, because a key used from a page is visible to whoever opens it. Use it
	 * with a key the user brings, or call through a proxy (`streamProxy`) instead. The name follows
	 * the official SDK's option.
	 *
	 * @example
	 * ```ts
	 * streamAnthropic(model, context, { apiKey: userKey, dangerouslyAllowBrowser: true });
	 * ```
	 */
	dangerouslyAllowBrowser?: boolean;
}

/** Everything one HTTP call needs. */
export interface AnthropicRequest {
	url: string;
	headers: Record<string, string>;
	body: AnthropicRequestBody;
	/** With `options.output` on a model without structured outputs: the forced tool that carries it. */
	outputTool?: string;
}

/** Whether `apiKey` is an OAuth access token (`sk-ant-oat…`) rather than an API key. */
export function isOAuthToken(apiKey: string): boolean {
	return apiKey.startsWith("sk-ant-oat");
}

/**
 * Builds the `POST /v1/messages` request for a model, context and options.
 *
 * - url: `${model.baseUrl}/v1/messages` (a base URL that already ends in `/v1` is accepted).
 * - headers: `anthropic-version`, `x-api-key` (or `authorization: Bearer` plus the OAuth beta for
 *   an `sk-ant-oat` token), `anthropic-beta` for the features in use, then `model.headers`, then
 *   `options.headers`, later ones winning (names compared case-insensitively). `anthropic-beta`
 *   values are the exception: the caller's are added to the ones the request needs, so adding a
 *   beta cannot drop the OAuth one.
 * - body: see the provider docs (docs/providers/anthropic-messages.md).
 *
 * @example
 * const { url, headers, body } = buildRequest(model, { messages }, { apiKey: "sk-ant-…" });
 */
export function buildRequest<TApi extends Api>(
	model: Model<TApi>,
	context: Context,
	options: AnthropicOptions = {},
): AnthropicRequest {
	const betas: string[] = [];
	const tools = context.tools && context.tools.length > 0 ? context.tools : undefined;
	// Tool input streams unbuffered either way: per tool where the server takes the field, else
	// through the beta header (as `@mariozechner/pi-ai` does).
	const compat = model.compat as AnthropicMessagesCompat | undefined;
	const eagerInputStreaming = compat?.supportsEagerToolInputStreaming !== false;
	if (tools && !eagerInputStreaming) betas.push(FINE_GRAINED_TOOL_STREAMING_BETA);
	const adaptive = supportsAdaptiveThinking(model.id);
	const thinking = options.thinkingEnabled === true;

	let maxTokens = options.maxTokens ?? defaultMaxTokens(model);
	let thinkingParam: AnthropicThinkingParam | undefined;
	if (thinking) {
		const display = options.thinkingDisplay ?? (omitsThinkingByDefault(model.id) ? "summarized" : undefined);
		if (adaptive) {
			thinkingParam = { type: "adaptive" };
		} else {
			let budget = options.thinkingBudgetTokens ?? MIN_THINKING_BUDGET;
			// The API requires max_tokens > budget_tokens: make room for an answer, within the model's limit.
			if (maxTokens <= budget) {
				maxTokens = budget + MIN_THINKING_BUDGET;
				if (model.maxTokens > 0 && maxTokens > model.maxTokens) {
					maxTokens = model.maxTokens;
					budget = Math.max(MIN_THINKING_BUDGET, maxTokens - MIN_THINKING_BUDGET);
				}
			}
			thinkingParam = { type: "enabled", budget_tokens: budget };
			if (tools && options.interleavedThinking !== false) betas.push(INTERLEAVED_THINKING_BETA);
		}
		if (display) thinkingParam.display = display;
	}

	const system = context.systemPrompt?.trim()
		? [{ type: "text" as const, text: context.systemPrompt }]
		: undefined;
	const messages = convertMessages(context.messages, model);
	let retention = resolveCacheRetention(options.cacheRetention);
	// A server without the 1-hour TTL still gets the default (5-minute) cache rather than none.
	if (retention === "long" && model.compat?.supportsLongCacheRetention === false) retention = "short";
	applyCacheControl(system, messages, cacheControlFor(retention));
	if (retention === "long") betas.push(EXTENDED_CACHE_TTL_BETA);

	const body: AnthropicRequestBody = {
		model: model.id,
		max_tokens: maxTokens,
		stream: true,
		...(system ? { system } : {}),
		messages,
	};
	if (tools) {
		body.tools = convertTools(tools, { eagerInputStreaming });
		if (options.toolChoice !== undefined) body.tool_choice = convertToolChoice(options.toolChoice);
	}
	if (thinkingParam) body.thinking = thinkingParam;
	else if (options.temperature !== undefined) body.temperature = options.temperature;
	if (options.effort !== undefined) body.output_config = { effort: options.effort };
	const userId = options.metadata?.user_id;
	if (typeof userId === "string" && userId) body.metadata = { user_id: userId };
	const outputTool = options.output ? applyOutput(body, model, options.output, thinking) : undefined;

	const request: AnthropicRequest = { url: messagesUrl(model.baseUrl), headers: buildHeaders(model, options, betas), body };
	if (outputTool !== undefined) request.outputTool = outputTool;
	return request;
}

/** `options.maxTokens` absent: the model's maximum capped at {@link DEFAULT_MAX_TOKENS_CAP}. */
export function defaultMaxTokens(model: Model<Api>): number {
	return model.maxTokens > 0 ? Math.min(model.maxTokens, DEFAULT_MAX_TOKENS_CAP) : FALLBACK_MAX_TOKENS;
}

/** `{baseUrl}/v1/messages/batches`, the Message Batches endpoint, or one batch's URL under it. */
export function batchesUrl(model: Model<Api>, batchId?: string): string {
	const base = `${messagesUrl(model.baseUrl)}/batches`;
	return batchId === undefined ? base : `${base}/${encodeURIComponent(batchId)}`;
}

/** The headers of a call that sends no message (a batch status check or cancel): version, auth, extras. */
export function authHeaders(model: Model<Api>, options: Pick<AnthropicOptions, "apiKey" | "headers">): Record<string, string> {
	return buildHeaders(model, options, []);
}

function messagesUrl(baseUrl: string): string {
	const base = (baseUrl || "https://api.anthropic.com").replace(/\/+$/, "");
	return base.endsWith("/v1") ? `${base}/messages` : `${base}/v1/messages`;
}

/** The header Anthropic's API requires on requests a browser sends directly (CORS). */
const BROWSER_ACCESS_HEADER = "anthropic-dangerous-direct-browser-access";

function buildHeaders(model: Model<Api>, options: AnthropicOptions, betas: string[]): Record<string, string> {
	const headers: Record<string, string> = { "anthropic-version": ANTHROPIC_VERSION };
	const apiKey = options.apiKey;
	if (apiKey) {
		if (isOAuthToken(apiKey)) {
			headers.authorization = `Bearer ${apiKey}`;
			betas.unshift(OAUTH_BETA);
		} else {
			headers["x-api-key"] = apiKey;
		}
	}
	// Before the caller's headers, so an explicit header still wins.
	if (options.dangerouslyAllowBrowser === true) headers[BROWSER_ACCESS_HEADER] = "true";
	const extra = [model.headers, options.headers];
	for (const source of extra) {
		for (const [name, value] of Object.entries(source ?? {})) {
			const key = name.toLowerCase();
			if (key === "anthropic-beta") betas.push(...splitList(value));
			else headers[key] = value;
		}
	}
	const unique = [...new Set(betas)];
	if (unique.length > 0) headers["anthropic-beta"] = unique.join(",");
	return headers;
}

function splitList(value: string): string[] {
	return value
		.split(",")
		.map((item) => item.trim())
		.filter((item) => item !== "");
}
