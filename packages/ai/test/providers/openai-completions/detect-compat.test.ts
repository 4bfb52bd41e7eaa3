import { describe, expect, it } from "vitest";
import { detectCompat, detectServer, type ResolvedOpenAICompletionsCompat } from "../../../src/providers/openai-completions.js";
import { completionsModel } from "./helpers.js";

const THREE = { minimal: "low", low: "low", medium: "medium", high: "high", xhigh: "high" };

/** The settings of an unknown server; each server's expectation says what differs. */
const BASE: ResolvedOpenAICompletionsCompat = {
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
	reasoningEffortMap: THREE,
	toolCallIdFormat: "default",
	reasoningRequestFormat: "openai",
	requiresThinkingAsText: false,
	requiresReasoningContentOnAssistantMessages: false,
	zaiToolStream: false,
	sendSessionAffinityHeaders: false,
	structuredOutput: "json_schema",
};

describe("detectCompat: one resolved compat per server", () => {
	const cases: [string, Parameters<typeof completionsModel>[0], string, Partial<ResolvedOpenAICompletionsCompat>][] = [
		[
			"OpenAI (reasoning model)",
			{ provider: "openai", baseUrl: "https://api.openai.com/v1", id: "o4-mini", reasoning: true },
			"openai",
			{
				supportsDeveloperRole: true,
				maxTokensField: "max_completion_tokens",
				supportsReasoningEffort: true,
				supportsStore: true,
				supportsStrictMode: true,
				supportsPromptCacheKey: true,
			},
		],
		[
			"Azure OpenAI",
			{ provider: "azure", baseUrl: "https://my-res.openai.azure.com/openai/deployments/gpt-4o?api-version=2024-10-21", id: "gpt-4o" },
			"azure",
			{ maxTokensField: "max_completion_tokens", supportsReasoningEffort: true, supportsStrictMode: true },
		],
		[
			"Groq",
			{ provider: "groq", baseUrl: "https://api.groq.com/openai/v1", id: "openai/gpt-oss-120b", reasoning: true },
			"groq",
			{ maxTokensField: "max_completion_tokens", supportsReasoningEffort: true },
		],
		[
			"xAI grok-3-mini",
			{ provider: "xai", baseUrl: "https://api.x.ai/v1", id: "grok-3-mini", reasoning: true },
			"xai",
			{
				thinkingFormat: "reasoning_content",
				supportsReasoningEffort: true,
				reasoningEffortMap: { minimal: "low", low: "low", medium: "high", high: "high", xhigh: "high" },
			},
		],
		[
			"DeepSeek",
			{ provider: "deepseek", baseUrl: "https://api.deepseek.com", id: "deepseek-reasoner", reasoning: true },
			"deepseek",
			{ thinkingFormat: "reasoning_content", requiresReasoningContentOnAssistantMessages: true, structuredOutput: "json_object" },
		],
		[
			"Mistral",
			{ provider: "mistral", baseUrl: "https://api.mistral.ai/v1", id: "magistral-medium-2507", reasoning: true },
			"mistral",
			{
				supportsUsageInStreaming: false,
				thinkingFormat: "content-parts",
				requiresToolResultName: true,
				requiresAssistantAfterToolResult: true,
				toolCallIdFormat: "mistral",
			},
		],
		[
			"OpenRouter",
			{ provider: "openrouter", baseUrl: "https://openrouter.ai/api/v1", id: "openai/gpt-5", reasoning: true },
			"openrouter",
			{
				supportsReasoningEffort: true,
				thinkingFormat: "reasoning",
				reasoningEffortMap: { minimal: "minimal", low: "low", medium: "medium", high: "high", xhigh: "xhigh" },
			},
		],
		[
			"Cerebras",
			{ provider: "cerebras", baseUrl: "https://api.cerebras.ai/v1", id: "gpt-oss-120b", reasoning: true },
			"cerebras",
			{ maxTokensField: "max_completion_tokens", supportsReasoningEffort: true },
		],
		["Together", { provider: "togetherai", baseUrl: "https://api.together.xyz/v1", id: "openai/gpt-oss-20b" }, "together", { supportsReasoningEffort: true }],
		[
			"Ollama by port, any provider name",
			{ provider: "local", baseUrl: "http://localhost:11434/v1", id: "qwen3:8b" },
			"ollama",
			{ supportsReasoningEffort: true, thinkingFormat: "reasoning" },
		],
		["LM Studio by port", { provider: "local", baseUrl: "http://127.0.0.1:1234/v1", id: "qwen3-8b" }, "lmstudio", { thinkingFormat: "reasoning_content" }],
		["llama.cpp by port", { provider: "local", baseUrl: "http://localhost:8080/v1", id: "any" }, "llamacpp", { thinkingFormat: "reasoning_content" }],
		["llama.cpp by provider", { provider: "llama.cpp", baseUrl: "http://gpu-box:9000/v1", id: "any" }, "llamacpp", { thinkingFormat: "reasoning_content" }],
		[
			"vLLM by provider",
			{ provider: "vllm", baseUrl: "http://gpu-box:8000/v1", id: "Qwen/Qwen3-8B" },
			"vllm",
			{ thinkingFormat: "reasoning_content", supportsReasoningEffort: true },
		],
		["an unknown server", { provider: "acme", baseUrl: "https://llm.acme.example/v1", id: "acme-1" }, "generic", {}],
	];

	for (const [label, overrides, server, differences] of cases) {
		it(`${label} → ${server}`, () => {
			const model = completionsModel(overrides);
			expect(detectServer(model)).toBe(server);
			expect(detectCompat(model)).toEqual({ ...BASE, ...differences });
		});
	}
});

describe("detectCompat: details", () => {
	it("the URL decides over the provider name: a model called openai on api.groq.com is Groq", () => {
		expect(detectServer(completionsModel({ provider: "openai", baseUrl: "https://api.groq.com/openai/v1" }))).toBe("groq");
	});

	it("an unknown local port falls back to the provider name", () => {
		expect(detectServer(completionsModel({ provider: "deepseek", baseUrl: "http://127.0.0.1:43210/v1" }))).toBe("deepseek");
	});

	it("non-reasoning OpenAI models keep the system role", () => {
		expect(detectCompat(completionsModel({ provider: "openai", id: "gpt-4o", reasoning: false })).supportsDeveloperRole).toBe(false);
	});

	it("OpenAI effort levels follow the model family", () => {
		const map = (id: string) => detectCompat(completionsModel({ provider: "openai", id, reasoning: true })).reasoningEffortMap;
		expect(map("gpt-5-mini")).toEqual({ minimal: "minimal", low: "low", medium: "medium", high: "high", xhigh: "high" });
		expect(map("gpt-5.1")).toEqual(THREE);
		expect(map("gpt-5.2")).toEqual({ ...THREE, xhigh: "xhigh" });
		expect(map("gpt-5.1-codex-max")).toEqual({ ...THREE, xhigh: "xhigh" });
		expect(map("o3")).toEqual(THREE);
	});

	it("Claude on OpenRouter gets Anthropic cache breakpoints; other OpenRouter models and servers none", () => {
		const openRouter = (id: string) => completionsModel({ provider: "openrouter", baseUrl: "https://openrouter.ai/api/v1", id });
		expect(detectCompat(openRouter("anthropic/claude-sonnet-4.5")).cacheControlFormat).toBe("anthropic");
		expect(detectCompat(openRouter("openai/gpt-5")).cacheControlFormat).toBeUndefined();
		expect(detectCompat(completionsModel({ provider: "acme", id: "anthropic/claude-sonnet-4.5" })).cacheControlFormat).toBeUndefined();
	});

	it("xAI models other than grok-3-mini get no reasoning_effort", () => {
		expect(detectCompat(completionsModel({ provider: "xai", id: "grok-4", reasoning: true })).supportsReasoningEffort).toBe(false);
	});

	it("model.compat overrides field by field, and reasoningEffortMap level by level", () => {
		const model = completionsModel({
			provider: "ollama",
			baseUrl: "http://localhost:11434/v1",
			compat: { thinkingFormat: "none", maxTokensField: "max_completion_tokens", reasoningEffortMap: { xhigh: "max" } },
		});
		expect(detectCompat(model)).toEqual({
			...BASE,
			supportsReasoningEffort: true,
			thinkingFormat: "none",
			maxTokensField: "max_completion_tokens",
			reasoningEffortMap: { ...THREE, xhigh: "max" },
		});
	});

	it("an undefined override keeps the detected value", () => {
		const model = completionsModel({ provider: "mistral", compat: { supportsUsageInStreaming: undefined } });
		expect(detectCompat(model).supportsUsageInStreaming).toBe(false);
	});

	it("metadata is opt-in everywhere, OpenAI included", () => {
		expect(detectCompat(completionsModel({ provider: "openai" })).supportsMetadata).toBe(false);
		expect(detectCompat(completionsModel({ provider: "openai", compat: { supportsMetadata: true } })).supportsMetadata).toBe(true);
	});
});
