import type { Model, OpenAICompletionsCompat, ReasoningRequestFormat, ThinkingLevel } from "../../types.js";
import { type CompletionsServer, detectServer } from "./detect-server.js";

/**
 * Compat fields that stay optional once resolved: routing preferences (sent only when given),
 * `supportsLongCacheRetention` (unset means `true`) and `cacheControlFormat` (unset means none).
 */
type OptionalCompat = "openRouterRouting" | "vercelGatewayRouting" | "supportsLongCacheRetention" | "cacheControlFormat";

/** Every compat setting decided: what {@link detectCompat} returns. */
export type ResolvedOpenAICompletionsCompat = Required<Omit<OpenAICompletionsCompat, "reasoningEffortMap" | "thinkingFormat" | OptionalCompat>> &
	Pick<OpenAICompletionsCompat, OptionalCompat> & {
		reasoningEffortMap: Record<ThinkingLevel, string>;
		/** How reasoning is replayed to the server. */
		thinkingFormat: "reasoning_content" | "reasoning" | "content-parts" | "none";
		/** How a reasoning level is requested: `openai` is the `reasoning_effort` field. */
		reasoningRequestFormat: ReasoningRequestFormat;
	};

/**
 * The replay format that goes with each of the reference's request formats: the field each of
 * those servers streams its reasoning in, and reads it back from.
 */
const REPLAY_FOR_REQUEST_FORMAT: Record<Exclude<ReasoningRequestFormat, "openai">, ResolvedOpenAICompletionsCompat["thinkingFormat"]> = {
	openrouter: "reasoning",
	deepseek: "reasoning_content",
	zai: "reasoning_content",
	qwen: "reasoning_content",
	"qwen-chat-template": "reasoning_content",
};

function isRequestFormat(value: unknown): value is ReasoningRequestFormat {
	return value === "openai" || (typeof value === "string" && Object.hasOwn(REPLAY_FOR_REQUEST_FORMAT, value));
}

/** Servers with the five levels `minimal`..`xhigh` accepted as they are. */
const ALL_LEVELS: Record<ThinkingLevel, string> = { minimal: "minimal", low: "low", medium: "medium", high: "high", xhigh: "xhigh" };
/** The common `low`/`medium`/`high` servers: the ends fold onto the nearest level. */
const THREE_LEVELS: Record<ThinkingLevel, string> = { minimal: "low", low: "low", medium: "medium", high: "high", xhigh: "high" };

/**
 * The compat settings for `model`: auto-detected from its `baseUrl` and provider (see
 * `detectServer`), then overridden field by field by `model.compat`. `reasoningEffortMap`
 * entries of `model.compat` replace the detected ones level by level.
 *
 * What is detected, per server:
 *
 * - OpenAI / Azure: `developer` role for reasoning models, `max_completion_tokens`, usage in
 *   the stream, `reasoning_effort`, `strict` tools; OpenAI also `store` and `prompt_cache_key`.
 * - Groq, Cerebras: `max_completion_tokens`, usage in the stream, `reasoning_effort` (low..high).
 *   Neither accepts reasoning fields on replayed assistant messages, so thinking is not replayed.
 * - xAI: `reasoning_content` replay; `reasoning_effort` only for `grok-3-mini` (`low`/`high`).
 * - DeepSeek, llama.cpp, vLLM, LM Studio: `max_tokens`, `reasoning_content` replay; DeepSeek
 *   also `reasoning_content` on every assistant message of a reasoning model.
 * - Mistral: `max_tokens`, no `stream_options` (Mistral rejects unknown fields), thinking as
 *   content parts, `name` on tool results, an assistant turn between tool results and a user
 *   message, 9-character tool-call ids.
 * - OpenRouter: `reasoning_effort` with all five levels, `reasoning` replay; Anthropic
 *   `cache_control` breakpoints for `anthropic/…` models.
 * - Ollama: `reasoning_effort` (low..high), `reasoning` replay.
 * - Together: `reasoning_effort` (low..high).
 * - Anything else (`generic`): `system` role, `max_tokens`, usage in the stream, nothing else.
 *
 * `supportsMetadata` is never detected: OpenAI only takes `metadata` with `store: true`, which
 * keeps the completion on OpenAI's side, so it is opt-in. Nor are `requiresThinkingAsText`,
 * `zaiToolStream` and `sendSessionAffinityHeaders` (z.ai and the session-routing gateways are
 * not detected servers): set them in `model.compat`.
 *
 * @example
 * detectCompat(groqModel).maxTokensField // "max_completion_tokens"
 * detectCompat({ ...ollamaModel, compat: { thinkingFormat: "none" } }).thinkingFormat // "none"
 */
export function detectCompat(model: Model<"openai-completions">): ResolvedOpenAICompletionsCompat {
	const detected = detectedCompat(detectServer(model), model);
	const overrides = model.compat ?? {};
	const resolved: ResolvedOpenAICompletionsCompat = { ...detected };
	for (const [key, value] of Object.entries(overrides) as [keyof OpenAICompletionsCompat, unknown][]) {
		if (value === undefined || key === "reasoningEffortMap") continue;
		if (key === "thinkingFormat" && isRequestFormat(value)) {
			// The reference's vocabulary names the request format; the replay format follows from it.
			resolved.reasoningRequestFormat = value;
			if (value !== "openai") resolved.thinkingFormat = REPLAY_FOR_REQUEST_FORMAT[value];
			continue;
		}
		(resolved as unknown as Record<string, unknown>)[key] = value;
	}
	if (overrides.reasoningEffortMap) {
		resolved.reasoningEffortMap = { ...detected.reasoningEffortMap };
		for (const [level, value] of Object.entries(overrides.reasoningEffortMap) as [ThinkingLevel, string | undefined][]) {
			if (value !== undefined) resolved.reasoningEffortMap[level] = value;
		}
	}
	return resolved;
}

/** The conservative settings of an unknown OpenAI-compatible server. */
function baseline(): ResolvedOpenAICompletionsCompat {
	return {
		supportsDeveloperRole: false,
		maxTokensField: "max_tokens",
		supportsUsageInStreaming: true,
		supportsReasoningEffort: false,
		supportsStore: false,
		requiresToolResultName: false,
		supportsStrictMode: false,
		thinkingFormat: "none",
		requiresAssistantAfterToolResult: false,
		supportsMetadata: false,
		supportsPromptCacheKey: false,
		reasoningEffortMap: { ...THREE_LEVELS },
		toolCallIdFormat: "default",
		reasoningRequestFormat: "openai",
		requiresThinkingAsText: false,
		requiresReasoningContentOnAssistantMessages: false,
		zaiToolStream: false,
		sendSessionAffinityHeaders: false,
		structuredOutput: "json_schema",
	};
}

function detectedCompat(server: CompletionsServer, model: Model<"openai-completions">): ResolvedOpenAICompletionsCompat {
	const compat = baseline();
	switch (server) {
		case "openai":
		case "azure":
			// The `developer` role replaces `system` for OpenAI's reasoning models (o-series, gpt-5).
			compat.supportsDeveloperRole = model.reasoning;
			// o-series models reject `max_tokens`; `max_completion_tokens` works for every model.
			compat.maxTokensField = "max_completion_tokens";
			compat.supportsReasoningEffort = true;
			compat.supportsStrictMode = true;
			compat.reasoningEffortMap = openAIEffortMap(model.id);
			if (server === "openai") {
				compat.supportsStore = true;
				compat.supportsPromptCacheKey = true;
			}
			return compat;
		case "groq":
		case "cerebras":
			compat.maxTokensField = "max_completion_tokens";
			compat.supportsReasoningEffort = true;
			// Both answer 400 "property 'reasoning' is unsupported" for reasoning on assistant messages.
			compat.thinkingFormat = "none";
			return compat;
		case "xai":
			compat.thinkingFormat = "reasoning_content";
			// Only grok-3-mini takes `reasoning_effort`; grok-4 answers 400 for it. Its levels are low/high.
			compat.supportsReasoningEffort = /grok-3-mini/i.test(model.id);
			compat.reasoningEffortMap = { minimal: "low", low: "low", medium: "high", high: "high", xhigh: "high" };
			return compat;
		case "deepseek":
		case "llamacpp":
		case "vllm":
		case "lmstudio":
			compat.thinkingFormat = "reasoning_content";
			compat.supportsReasoningEffort = server === "vllm";
			// DeepSeek's thinking mode answers 400 "Missing `reasoning_content` field in the
			// assistant message" for any assistant turn without one, another model's included.
			compat.requiresReasoningContentOnAssistantMessages = server === "deepseek";
			// DeepSeek has JSON mode only ("response_format type json_schema is unavailable").
			if (server === "deepseek") compat.structuredOutput = "json_object";
			return compat;
		case "mistral":
			// Mistral validates request bodies strictly ("Extra inputs are not permitted").
			compat.supportsUsageInStreaming = false;
			compat.thinkingFormat = "content-parts";
			compat.requiresToolResultName = true;
			compat.requiresAssistantAfterToolResult = true;
			compat.toolCallIdFormat = "mistral";
			return compat;
		case "openrouter":
			compat.supportsReasoningEffort = true;
			compat.thinkingFormat = "reasoning";
			compat.reasoningEffortMap = { ...ALL_LEVELS };
			// Claude behind OpenRouter caches only at explicit Anthropic-style breakpoints.
			if (model.id.startsWith("anthropic/")) compat.cacheControlFormat = "anthropic";
			return compat;
		case "ollama":
			compat.supportsReasoningEffort = true;
			compat.thinkingFormat = "reasoning";
			return compat;
		case "together":
			compat.supportsReasoningEffort = true;
			return compat;
		case "generic":
			return compat;
	}
}

/**
 * OpenAI's levels differ by model family: gpt-5 has `minimal`; gpt-5.1 and later replaced it
 * with `none` (so `minimal` becomes `low`); `xhigh` exists from gpt-5.1-codex-max and gpt-5.2 on;
 * o-series models have only low/medium/high.
 */
function openAIEffortMap(modelId: string): Record<ThinkingLevel, string> {
	const id = modelId.toLowerCase();
	const map = { ...THREE_LEVELS };
	const gpt5 = /gpt-5(?![.\d])/.test(id);
	const gpt5Point = /gpt-5\.(\d+)/.exec(id);
	if (gpt5) map.minimal = "minimal";
	if (id.includes("codex-max") || (gpt5Point && Number(gpt5Point[1]) >= 2)) map.xhigh = "xhigh";
	return map;
}
