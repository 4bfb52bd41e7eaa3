/**
 * The Anthropic Messages provider (`api: "anthropic-messages"`), written directly over fetch
 * through the shared HTTP seam. Loaded lazily by `stream()`; import this subpath
 * (`@pi/ai/anthropic-messages`) to call it directly. See docs/providers/anthropic-messages.md.
 */
import { getEnvApiKey, getEnvApiKeyNames } from "../env-api-keys.js";
import { postEventStreamBatches, type ServerSentEvent, transportOptions } from "../http/post-event-stream.js";
import { createProviderStream } from "../provider-stream.js";
import type { Api, Model, SimpleStreamOptions, StreamFunction } from "../types.js";
import { AnthropicStreamState } from "./anthropic-messages/anthropic-stream-state.js";
import { submitDeferredAnthropic } from "./anthropic-messages/deferred.js";
import { withDeferredPrices } from "../deferred/deferred-pricing.js";
import { type AnthropicOptions, buildRequest } from "./anthropic-messages/build-request.js";
import { effortForLevel, supportsAdaptiveThinking } from "./anthropic-messages/model-features.js";
import type { AnthropicStreamEvent } from "./anthropic-messages/wire-types.js";
import { maxTokensWithThinking, reasoningLevel, thinkingBudget } from "./simple-options.js";
import { isBlank } from "../utils/is-blank.js";

export type { AnthropicOptions, AnthropicThinkingDisplay } from "./anthropic-messages/build-request.js";
export { cancelDeferredAnthropic, streamDeferredAnthropic } from "./anthropic-messages/deferred.js";
export type { AnthropicEffort } from "./anthropic-messages/model-features.js";
export type { AnthropicToolChoiceOption } from "./anthropic-messages/convert-tools.js";

/**
 * Streams one reply from the Anthropic Messages API (`POST {baseUrl}/v1/messages`).
 *
 * The key is `options.apiKey`, else `getEnvApiKey(model.provider)` (for `anthropic`:
 * `ANTHROPIC_OAUTH_TOKEN`, then `ANTHROPIC_API_KEY`). An `sk-ant-oat…` OAuth token is sent as a
 * bearer token with the OAuth beta. Never throws: every failure ends the stream with an `error`
 * (or `aborted`) message keeping the content that arrived.
 *
 * @example
 * ```ts
 * import { streamAnthropic } from "@pi/ai/anthropic-messages";
 * const s = streamAnthropic(model, { messages: [{ role: "user", content: "Hi", timestamp: Date.now() }] }, {
 *   thinkingEnabled: true,
 *   thinkingBudgetTokens: 4096,
 * });
 * for await (const event of s) if (event.type === "text_delta") process.stdout.write(event.delta);
 * ```
 */
export const streamAnthropic: StreamFunction<"anthropic-messages", AnthropicOptions> = (model, context, options) => {
	// Resolve the key first, so the builder scrubs an environment key from errors too.
	const apiKey = options?.apiKey ?? getEnvApiKey(model.provider);
	const resolved: AnthropicOptions = { ...options, apiKey };
	const deferred = options?.deferred !== undefined && options.deferred !== false;
	// A batch reply is billed at the batch price; the placeholder has no usage, but keep it coherent.
	return createProviderStream(deferred ? withDeferredPrices(model) : model, resolved, async (builder) => {
		if (!apiKey && !hasAuthHeader(model, resolved)) throw new Error(missingKeyMessage(model.provider));
		// `deferred`: the request goes out as a Message Batch of one, redeemed later by streamDeferred.
		if (deferred) return submitDeferredAnthropic(builder, model as Model<Api>, context, resolved);
		const request = buildRequest(model, context, resolved);
		const body = (await resolved.onPayload?.(request.body, model as Model<Api>)) ?? request.body;
		const state = new AnthropicStreamState(builder, request.outputTool);
		const batches = postEventStreamBatches({
			url: request.url,
			headers: request.headers,
			body,
			...transportOptions(resolved, model),
			secrets: [apiKey],
		});
		for await (const batch of batches) {
			for (const sse of batch) {
				const event = parseEvent(sse);
				if (event) state.handle(event);
				// Nothing useful follows message_stop or an error event; leaving releases the socket.
				if (state.isFinished) return;
			}
		}
		throw new Error("The stream ended before the provider's final event (message_stop).");
	});
};

/**
 * Streams one reply with the common options: `reasoning` becomes adaptive thinking with an
 * effort on models that take it (Opus 4.6, Sonnet 4.6 and later), and budget thinking on older
 * reasoning models (`thinkingBudgets` or the defaults, with `max_tokens` raised above the budget).
 * No `reasoning`, or a model that cannot reason, means no thinking.
 *
 * @example
 * ```ts
 * const message = await streamSimpleAnthropic(model, context, { reasoning: "medium" }).result();
 * ```
 */
export const streamSimpleAnthropic: StreamFunction<"anthropic-messages", SimpleStreamOptions> = (model, context, options) => {
	const { reasoning: _reasoning, thinkingBudgets, ...base } = options ?? {};
	const level = reasoningLevel(model, options);
	if (!level) return streamAnthropic(model, context, base);
	if (supportsAdaptiveThinking(model.id)) {
		return streamAnthropic(model, context, { ...base, thinkingEnabled: true, effort: effortForLevel(model.id, level) });
	}
	const { maxTokens, budget } = maxTokensWithThinking(model, options?.maxTokens, thinkingBudget(level, thinkingBudgets));
	return streamAnthropic(model, context, { ...base, thinkingEnabled: true, thinkingBudgetTokens: budget, maxTokens });
};

/** Parses one SSE `data:` payload; `undefined` for an empty one. Malformed JSON fails the message. */
function parseEvent(sse: ServerSentEvent): AnthropicStreamEvent | undefined {
	const data = sse.data;
	if (isBlank(data)) return undefined;
	let parsed: unknown;
	try {
		parsed = JSON.parse(data);
	} catch {
		const preview = data.length > 200 ? `${data.slice(0, 200)}…` : data;
		throw new Error(`Malformed JSON in stream event${sse.event ? ` "${sse.event}"` : ""}: ${preview}`);
	}
	if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
	const event = parsed as AnthropicStreamEvent;
	// The payload names its type; the `event:` line is the fallback for a payload without one.
	if (typeof event.type !== "string" && sse.event) event.type = sse.event;
	return event;
}

function hasAuthHeader(model: Model<Api>, options: AnthropicOptions): boolean {
	const names = [...Object.keys(model.headers ?? {}), ...Object.keys(options.headers ?? {})].map((name) => name.toLowerCase());
	return names.includes("x-api-key") || names.includes("authorization");
}

function missingKeyMessage(provider: string): string {
	const names = getEnvApiKeyNames(provider);
	const variables = names && names.length > 0 ? `set ${names.join(" or ")}, or ` : "";
	return `No API key for provider "${provider}": ${variables}pass options.apiKey.`;
}
