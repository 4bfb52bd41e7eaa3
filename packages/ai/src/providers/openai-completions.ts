/**
 * The `openai-completions` provider: OpenAI Chat Completions (`POST {baseUrl}/chat/completions`)
 * and every server that speaks it (Azure OpenAI, Groq, xAI, DeepSeek, Mistral, OpenRouter,
 * Cerebras, Together, Ollama, LM Studio, llama.cpp, vLLM, …). Server differences live in the
 * model's compat settings, auto-detected by `detectCompat`.
 *
 * Import it from `@pi/ai/openai-completions`; `stream(model, …)` loads it on first use.
 */
import { getEnvApiKey, getEnvApiKeyNames } from "../env-api-keys.js";
import { postEventStreamBatches, transportOptions } from "../http/post-event-stream.js";
import { createProviderStream } from "../provider-stream.js";
import { cannotDeferError } from "../deferred/handle.js";
import type { Context, Model, SimpleStreamOptions, StreamFunction } from "../types.js";
import { buildRequest } from "./openai-completions/build-request.js";
import { CompletionsStreamState } from "./openai-completions/completions-stream-state.js";
import { detectCompat } from "./openai-completions/detect-compat.js";
import { detectServer, isHostedServer, isLocalBaseUrl } from "./openai-completions/detect-server.js";
import type { OpenAICompletionsOptions } from "./openai-completions/options.js";
import { usesStrictOutput } from "./openai-completions/response-format.js";
import { reasoningLevel } from "./simple-options.js";

export { buildRequest, chatCompletionsUrl, type CompletionsRequest } from "./openai-completions/build-request.js";
export { convertMessages } from "./openai-completions/convert-messages.js";
export { convertTools } from "./openai-completions/convert-tools.js";
export { detectCompat, type ResolvedOpenAICompletionsCompat } from "./openai-completions/detect-compat.js";
export { type CompletionsServer, detectServer } from "./openai-completions/detect-server.js";
export { mistralToolCallId, openAIToolCallId } from "./openai-completions/normalize-tool-call-id.js";
export type { OpenAICompletionsOptions } from "./openai-completions/options.js";

/**
 * Streams one reply from a Chat Completions server.
 *
 * The key is `options.apiKey`, else the provider's environment variable (`getEnvApiKey`). Hosted
 * APIs (OpenAI, Groq, …) need one; a local or unknown server gets no `Authorization` header
 * without one, so a model pointed at `http://localhost:11434/v1` works with no key at all.
 *
 * Never throws: failures end the stream with `stopReason` `error` or `aborted`, keeping content.
 *
 * @example
 * ```ts
 * import { streamOpenAICompletions } from "@pi/ai/openai-completions";
 * const reply = await streamOpenAICompletions(model, { messages: [{ role: "user", content: "Hi", timestamp: Date.now() }] }).result();
 * ```
 */
export const streamOpenAICompletions: StreamFunction<"openai-completions", OpenAICompletionsOptions> = (
	model: Model<"openai-completions">,
	context: Context,
	options?: OpenAICompletionsOptions,
) =>
	createProviderStream(model, options, async (builder) => {
		// Chat Completions has no background or batch mode here: never send a normal request instead.
		if (options?.deferred) throw cannotDeferError(model.api);
		const compat = detectCompat(model);
		const apiKey = options?.apiKey ?? getEnvApiKey(model.provider);
		if (!apiKey) assertKeyOptional(model);
		const request = buildRequest(model, context, options, compat, apiKey);
		const body = (await options?.onPayload?.(request.body, model)) ?? request.body;
		if (options?.output && usesStrictOutput(compat)) builder.outputOptionalsAsNull();
		const state = new CompletionsStreamState(builder, [apiKey]);
		const batches = postEventStreamBatches({
			url: request.url,
			headers: request.headers,
			body,
			...transportOptions(options, model),
			secrets: [apiKey],
		});
		read: for await (const batch of batches) {
			for (const event of batch) if (state.handle(event) === "stop") break read;
		}
		state.complete();
	});

/**
 * Like {@link streamOpenAICompletions}, with the unified options: `reasoning` becomes
 * `reasoningEffort` for reasoning models (mapped per server by `compat.reasoningEffortMap`);
 * a model without reasoning gets none. `thinkingBudgets` do not apply to this API.
 *
 * @example
 * ```ts
 * const reply = await streamSimpleOpenAICompletions(model, context, { reasoning: "high" }).result();
 * ```
 */
export const streamSimpleOpenAICompletions: StreamFunction<"openai-completions", SimpleStreamOptions> = (
	model: Model<"openai-completions">,
	context: Context,
	options?: SimpleStreamOptions,
) => {
	const { reasoning: _reasoning, thinkingBudgets: _budgets, ...rest } = options ?? {};
	const level = reasoningLevel(model, options);
	const full: OpenAICompletionsOptions = level === undefined ? rest : { ...rest, reasoningEffort: level };
	return streamOpenAICompletions(model, context, full);
};

/** Hosted APIs need a key; say which variable to set. Local and unknown servers may run without. */
function assertKeyOptional(model: Model<"openai-completions">): void {
	const server = detectServer(model);
	if (!isHostedServer(server) || isLocalBaseUrl(model.baseUrl)) return;
	const names = getEnvApiKeyNames(model.provider) ?? getEnvApiKeyNames(server === "together" ? "togetherai" : server);
	const hint = names && names.length > 0 ? `set ${names.join(" or ")}, or pass options.apiKey` : "pass options.apiKey";
	throw new Error(`No API key for provider "${model.provider}" (${model.baseUrl}): ${hint}.`);
}
