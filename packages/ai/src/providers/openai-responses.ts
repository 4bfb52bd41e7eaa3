/**
 * The OpenAI Responses API (`POST {baseUrl}/responses`, streamed), as served by OpenAI and by
 * compatible servers such as LM Studio and DeepSeek. See docs/providers/openai-responses.md.
 */
import { getEnvApiKey, getEnvApiKeyNames } from "../env-api-keys.js";
import { ApiCallError } from "../http/api-call-error.js";
import { assertCompletionWindow } from "../deferred/completion-window.js";
import { postEventStreamBatches, transportOptions } from "../http/post-event-stream.js";
import { createProviderStream } from "../provider-stream.js";
import type { SimpleStreamOptions, StreamFunction } from "../types.js";
import { redactSecrets } from "../utils/redact.js";
import { buildRequest } from "./openai-responses/build-request.js";
import { CHAT_COMPLETIONS_HINT } from "./openai-responses/chat-completions-hint.js";
import type { OpenAIResponsesOptions } from "./openai-responses/options.js";
import { reasoningEffortFor } from "./openai-responses/reasoning-effort.js";
import { ResponsesStreamState } from "./openai-responses/responses-stream-state.js";
import { reasoningLevel } from "./simple-options.js";

export type { OpenAIResponsesOptions } from "./openai-responses/options.js";
export { cancelDeferredOpenAIResponses, streamDeferredOpenAIResponses } from "./openai-responses/deferred.js";
export type {
	ResponsesReasoningEffort,
	ResponsesReasoningSummary,
	ResponsesServiceTier,
	ResponsesToolChoice,
} from "./openai-responses/wire-types.js";

/**
 * Streams one reply from a model of the `openai-responses` API.
 *
 * Returns at once and never throws: a missing key, an HTTP error, a failed or incomplete response
 * and a broken connection all end the stream with `stopReason` `error` (or `aborted`), keeping the
 * content that arrived. A `background` response whose stream ends before it finishes ends with
 * `deferred` and a handle to resume it.
 *
 * The key is `options.apiKey`, else the provider's environment variable (`OPENAI_API_KEY` for
 * `openai`); providers without a known variable (LM Studio, a local server) are called without one.
 *
 * @example
 * const s = streamOpenAIResponses(getModel("openai", "gpt-4o"), {
 *   systemPrompt: "Be brief.",
 *   messages: [{ role: "user", content: "Hello", timestamp: Date.now() }],
 * }, { maxTokens: 200 });
 * for await (const event of s) if (event.type === "text_delta") process.stdout.write(event.delta);
 * const message = await s.result();
 */
export const streamOpenAIResponses: StreamFunction<"openai-responses", OpenAIResponsesOptions> = (model, context, options) => {
	// Resolved before the stream starts, so that the builder scrubs a key from the environment out
	// of every error message too (an in-stream `error` event may echo it).
	const apiKey = options?.apiKey ?? getEnvApiKey(model.provider);
	return createProviderStream(model, { ...options, apiKey }, async (builder) => {
		const variables = getEnvApiKeyNames(model.provider);
		if (!apiKey && variables) {
			throw new Error(
				`No API key for provider "${model.provider}": pass options.apiKey or set ${variables.join(" or ")}.`,
			);
		}
		const secrets = [apiKey];
		// A background job starts at once: every well-formed completion window holds.
		assertCompletionWindow(model.api, options?.deferred, 0);
		const request = buildRequest(model, context, options, apiKey);
		// text.format is always strict: optional properties went out nullable.
		if (options?.output) builder.outputOptionalsAsNull();
		const body = (await options?.onPayload?.(request.body, model)) ?? request.body;
		const deferring = options?.deferred !== undefined && options.deferred !== false;
		const background = deferring || options?.background === true || (isRecord(body) && body.background === true);
		const state = new ResponsesStreamState(builder, model, { background });
		try {
			const batches = postEventStreamBatches({ url: request.url, headers: request.headers, body, ...transportOptions(options, model), secrets });
			for await (const batch of batches) {
				for (const event of batch) {
					state.handleData(event.data);
					// `deferred`: the job runs on without us once its id is known; leaving closes the connection.
					if (deferring && state.canDefer) state.deferNow();
					// Stop reading once the message is final (an `error` event, an abort, a deferral).
					if (builder.isFinished) return;
				}
			}
		} catch (error) {
			if (builder.isFinished) return;
			if (options?.signal?.aborted) {
				builder.fail(error, options.signal);
				return;
			}
			let message = redactSecrets(error instanceof Error ? error.message : String(error), secrets);
			// No `/responses` route: most likely a server that speaks only Chat Completions.
			if (error instanceof ApiCallError && error.status === 404) message = `${message}${/[.!?]$/.test(message) ? "" : "."} ${CHAT_COMPLETIONS_HINT}`;
			// A background job outlives a dropped connection: hand back where to resume it.
			if (isTransportError(error) && state.interrupted(message)) return;
			builder.fail(new Error(message), options?.signal);
			return;
		}
		state.end();
	});
};

/**
 * Like {@link streamOpenAIResponses}, with the options common to every provider: `reasoning`
 * becomes `reasoningEffort` (clamped to what OpenAI's model accepts, see `reasoningEffortFor`)
 * with `reasoningSummary: "auto"`; a model without `reasoning`, or no `reasoning` option, gets no
 * reasoning parameters at all.
 *
 * @example
 * const message = await streamSimpleOpenAIResponses(getModel("openai", "gpt-5"), context, { reasoning: "high" }).result();
 */
export const streamSimpleOpenAIResponses: StreamFunction<"openai-responses", SimpleStreamOptions> = (model, context, options) => {
	const level = reasoningLevel(model, options);
	const { reasoning: _reasoning, thinkingBudgets: _budgets, ...common } = options ?? {};
	const full: OpenAIResponsesOptions = { ...common };
	if (level !== undefined) full.reasoningEffort = reasoningEffortFor(model, level);
	return streamOpenAIResponses(model, context, full);
};

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null;
}

/** A failure of the connection itself (no HTTP status): reset, idle timeout, network error. */
function isTransportError(error: unknown): boolean {
	return error instanceof ApiCallError && error.status === undefined;
}
