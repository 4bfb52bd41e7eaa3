import { describe, expect, it } from "vitest";
import type { Tool } from "../../../src/types.js";
import { useCapture } from "./capture.js";
import { ask } from "./helpers.js";

/**
 * Golden thinking settings. Budget thinking for models before 4.6; adaptive thinking with
 * `output_config.effort` for Opus/Sonnet 4.6 and later (wire shape checked against Anthropic's
 * adaptive-thinking and effort documentation, see docs/providers/anthropic-messages.md).
 */
const { capture, captureSimple } = useCapture();
const noCache = { cacheRetention: "none" } as const;
const tool: Tool = { name: "now", description: "Time", parameters: { type: "object", properties: {} } as Tool["parameters"] };

describe("anthropic-messages request: budget thinking (models before 4.6)", () => {
	it("maps a reasoning level to a budget, adds it to max_tokens and drops temperature", async () => {
		const { body, request } = await captureSimple(ask("Go"), { ...noCache, reasoning: "medium", temperature: 0.5 });
		expect(body).toEqual({
			model: "claude-sonnet-4-20250514",
			max_tokens: 40192,
			stream: true,
			messages: [{ role: "user", content: [{ type: "text", text: "Go" }] }],
			thinking: { type: "enabled", budget_tokens: 8192 },
		});
		expect(request.headers["anthropic-beta"]).toBeUndefined();
	});

	it.each([
		["minimal", 1024],
		["low", 2048],
		["high", 16384],
		["xhigh", 32768],
	] as const)("uses the default budget for %s", async (reasoning, budget) => {
		const { body } = await captureSimple(ask(), { ...noCache, reasoning, maxTokens: 2000 });
		expect(body.thinking).toEqual({ type: "enabled", budget_tokens: budget });
		expect(body.max_tokens).toBe(2000 + budget);
	});

	it("uses thinkingBudgets, shrinking the budget when the model's limit leaves too little answer room", async () => {
		const custom = await captureSimple(ask(), { ...noCache, reasoning: "low", thinkingBudgets: { low: 3000 }, maxTokens: 1000 });
		expect(custom.body.thinking).toEqual({ type: "enabled", budget_tokens: 2976 });
		expect(custom.body.max_tokens).toBe(4000);

		const small = await captureSimple(ask(), { ...noCache, reasoning: "high" }, { id: "claude-3-7-sonnet-20250219", maxTokens: 8192 });
		expect(small.body.thinking).toEqual({ type: "enabled", budget_tokens: 7168 });
		expect(small.body.max_tokens).toBe(8192);
	});

	it("sends the interleaved-thinking beta with tools, unless turned off", async () => {
		const on = await captureSimple(ask("Go", { tools: [tool] }), { ...noCache, reasoning: "low" });
		expect(on.request.headers["anthropic-beta"]).toBe("interleaved-thinking-2025-05-14");

		const off = await capture(ask("Go", { tools: [tool] }), { ...noCache, thinkingEnabled: true, interleavedThinking: false });
		expect(off.request.headers["anthropic-beta"]).toBeUndefined();
	});

	it("streamAnthropic: default budget 1024, max_tokens raised above a larger budget", async () => {
		const defaults = await capture(ask(), { ...noCache, thinkingEnabled: true, temperature: 1 });
		expect(defaults.body.thinking).toEqual({ type: "enabled", budget_tokens: 1024 });
		expect(defaults.body.max_tokens).toBe(32000);
		expect(defaults.body.temperature).toBeUndefined();

		const raised = await capture(ask(), { ...noCache, thinkingEnabled: true, thinkingBudgetTokens: 4096, maxTokens: 1000 });
		expect(raised.body.thinking).toEqual({ type: "enabled", budget_tokens: 4096 });
		expect(raised.body.max_tokens).toBe(5120);

		const capped = await capture(ask(), { ...noCache, thinkingEnabled: true, thinkingBudgetTokens: 9000, maxTokens: 8000 }, { maxTokens: 8192 });
		expect(capped.body.thinking).toEqual({ type: "enabled", budget_tokens: 7168 });
		expect(capped.body.max_tokens).toBe(8192);
	});

	it("sends no thinking without a reasoning level, or for a model that cannot reason", async () => {
		const none = await captureSimple(ask(), { ...noCache, temperature: 0.3 });
		expect(none.body.thinking).toBeUndefined();
		expect(none.body.temperature).toBe(0.3);

		const cannot = await captureSimple(ask(), { ...noCache, reasoning: "high" }, { id: "claude-3-5-haiku-20241022", reasoning: false, maxTokens: 8192 });
		expect(cannot.body.thinking).toBeUndefined();
		expect(cannot.body.max_tokens).toBe(8192);
	});
});

describe("anthropic-messages request: adaptive thinking (Opus/Sonnet 4.6 and later)", () => {
	it("sends thinking {type: adaptive} with output_config.effort, no budget, no temperature and no interleaved beta", async () => {
		const { body, request } = await captureSimple(ask("Go", { tools: [tool] }), { ...noCache, reasoning: "high", temperature: 0.7 }, { id: "claude-opus-4-6", maxTokens: 128_000 });
		expect(body).toEqual({
			model: "claude-opus-4-6",
			max_tokens: 32000,
			stream: true,
			messages: [{ role: "user", content: [{ type: "text", text: "Go" }] }],
			tools: [{ name: "now", description: "Time", eager_input_streaming: true, input_schema: { type: "object", properties: {} } }],
			thinking: { type: "adaptive" },
			output_config: { effort: "high" },
		});
		expect(request.headers["anthropic-beta"]).toBeUndefined();
	});

	it.each([
		["claude-sonnet-4-6", "minimal", "low"],
		["claude-sonnet-4-6", "low", "low"],
		["claude-sonnet-4-6", "medium", "medium"],
		["claude-sonnet-4-6", "xhigh", "high"],
		["claude-opus-4-6", "xhigh", "max"],
		["claude-opus-4-7", "xhigh", "xhigh"],
	] as const)("%s: reasoning %s → effort %s", async (id, reasoning, effort) => {
		const { body } = await captureSimple(ask(), { ...noCache, reasoning }, { id });
		expect(body.output_config).toEqual({ effort });
		expect((body.thinking as { type: string }).type).toBe("adaptive");
	});

	it("asks for summarized thinking on models that omit it by default (Opus 4.7 and later)", async () => {
		const opus47 = await captureSimple(ask(), { ...noCache, reasoning: "medium" }, { id: "claude-opus-4-7" });
		expect(opus47.body.thinking).toEqual({ type: "adaptive", display: "summarized" });

		const sonnet46 = await captureSimple(ask(), { ...noCache, reasoning: "medium" }, { id: "claude-sonnet-4-6" });
		expect(sonnet46.body.thinking).toEqual({ type: "adaptive" });

		const omitted = await capture(ask(), { ...noCache, thinkingEnabled: true, thinkingDisplay: "omitted" }, { id: "claude-opus-4-7" });
		expect(omitted.body.thinking).toEqual({ type: "adaptive", display: "omitted" });
		expect(omitted.body.output_config).toBeUndefined();
	});
});
