/**
 * The Gemini API (`google-generative-ai`): Google AI Studio's `generativelanguage.googleapis.com`,
 * spoken directly over fetch through the shared HTTP seam (no SDK). Loaded lazily by `stream()`;
 * import `@pi/ai/google-generative-ai` to call it directly.
 *
 * See docs/providers/google-generative-ai.md for the request mapping and the stream rules.
 */
import { getEnvApiKey, getEnvApiKeyNames } from "../env-api-keys.js";
import { ApiCallError } from "../http/api-call-error.js";
import { postEventStreamBatches, transportOptions } from "../http/post-event-stream.js";
import { createProviderStream } from "../provider-stream.js";
import type { Provider, SimpleStreamOptions, StreamFunction } from "../types.js";
import { submitDeferredGoogle } from "./google-generative-ai/deferred.js";
import { buildRequest } from "./google-generative-ai/build-request.js";
import { withDeferredPrices } from "../deferred/deferred-pricing.js";
import { resolveGoogleCompat } from "./google-generative-ai/google-compat.js";
import type { GoogleOptions } from "./google-generative-ai/google-options.js";
import { GeminiStreamState } from "./google-generative-ai/gemini-stream-state.js";
import { simpleThinking } from "./google-generative-ai/thinking-config.js";
import type { GeminiStreamChunk } from "./google-generative-ai/wire-types.js";
import { isBlank } from "../utils/is-blank.js";

export type { GoogleCompat } from "./google-generative-ai/google-compat.js";
export { cancelDeferredGoogle, streamDeferredGoogle } from "./google-generative-ai/deferred.js";
export type { GoogleOptions, GoogleThinkingLevel } from "./google-generative-ai/google-options.js";

/**
 * Streams one reply from a Gemini model with Gemini's full options ({@link GoogleOptions}).
 *
 * The key is `options.apiKey`, else `getEnvApiKey(model.provider)` (`GEMINI_API_KEY`, then
 * `GOOGLE_API_KEY` for provider `google`); it goes in the `x-goog-api-key` header, never in the
 * URL. Never throws: a missing key, an HTTP error, a blocked prompt, a safety stop or a broken
 * stream all end the stream with `stopReason: "error"` (or `"aborted"`) and the content that arrived.
 *
 * @example
 * import { streamGoogle } from "@pi/ai/google-generative-ai";
 * const s = streamGoogle(getModel("google", "gemini-2.5-flash")!, { messages: [{ role: "user", content: "Hi", timestamp: Date.now() }] });
 * for await (const event of s) if (event.type === "text_delta") process.stdout.write(event.delta);
 */
export const streamGoogle: StreamFunction<"google-generative-ai", GoogleOptions> = (model, context, options) => {
	const apiKey = options?.apiKey ?? getEnvApiKey(model.provider);
	// The key from the environment joins the secrets the builder scrubs from error messages.
	const deferred = options?.deferred !== undefined && options.deferred !== false;
	return createProviderStream(deferred ? withDeferredPrices(model) : model, { ...options, apiKey }, async (builder) => {
		if (!apiKey) throw new Error(missingKeyMessage(model.provider));
		// `deferred`: the request goes out as a batch of one, redeemed later by streamDeferred.
		if (deferred) return submitDeferredGoogle(builder, model, context, options ?? {}, apiKey);
		const request = buildRequest(model, context, options, apiKey);
		const body = (await options?.onPayload?.(request.body, model)) ?? request.body;
		const state = new GeminiStreamState(builder);
		const batches = postEventStreamBatches({
			url: request.url,
			headers: request.headers,
			body,
			...transportOptions(options, model),
			secrets: [apiKey],
		});
		try {
			for await (const batch of batches) {
				for (const event of batch) {
					if (isBlank(event.data)) continue;
					state.handleChunk(parseChunk(event.data));
					if (builder.isFinished) return;
				}
			}
		} catch (error) {
			// The final chunk arrived and only the connection failed instead of closing (a proxy that
			// holds it open until the idle timeout, a reset): the reply is complete, not an error.
			if (state.hasFinalChunk && isTransportFailure(error) && !options?.signal?.aborted) {
				state.finish();
				return;
			}
			// Arguments of a streamed call that was cut off are kept on its block.
			state.flushStreamingCall();
			throw error;
		}
		state.finish();
	});
};

/**
 * Streams one reply with the common options: `reasoning` maps to Gemini's thinking setting
 * (`thinkingLevel` on Gemini 3+, `thinkingBudget` from `thinkingBudgets` on Gemini 2.x, thinking
 * turned down when no reasoning is asked of a reasoning model), then {@link streamGoogle} runs.
 *
 * @example
 * streamSimpleGoogle(model, context, { reasoning: "high" });
 */
export const streamSimpleGoogle: StreamFunction<"google-generative-ai", SimpleStreamOptions> = (model, context, options) => {
	const { thinking, maxTokens } = simpleThinking(model, options, resolveGoogleCompat(model));
	const { reasoning: _reasoning, thinkingBudgets: _budgets, ...common } = options ?? {};
	const googleOptions: GoogleOptions = { ...common };
	if (maxTokens !== undefined) googleOptions.maxTokens = maxTokens;
	if (thinking) googleOptions.thinking = thinking;
	return streamGoogle(model, context, googleOptions);
};

/** A failure of the connection itself (reset, idle timeout), not an answer of the server. */
function isTransportFailure(error: unknown): boolean {
	return error instanceof ApiCallError && error.status === undefined;
}

function parseChunk(data: string): GeminiStreamChunk {
	let value: unknown;
	try {
		value = JSON.parse(data);
	} catch {
		const preview = data.length > 200 ? `${data.slice(0, 200)}…` : data;
		throw new Error(`Malformed JSON in stream event: ${preview}`);
	}
	if (typeof value !== "object" || value === null || Array.isArray(value)) {
		throw new Error(`Malformed JSON in stream event: expected an object, got ${Array.isArray(value) ? "an array" : typeof value}`);
	}
	return value as GeminiStreamChunk;
}

function missingKeyMessage(provider: Provider): string {
	const names = getEnvApiKeyNames(provider);
	const where = names && names.length > 0 ? `set ${names.join(" or ")}, or pass` : "pass";
	return `No API key for provider "${provider}": ${where} options.apiKey.`;
}
