import { afterEach, describe, expect, it } from "vitest";
import { resolveCacheRetention } from "../../src/cache-retention.js";
import { buildRequest as buildAnthropic } from "../../src/providers/anthropic-messages/build-request.js";
import { buildRequest as buildCompletions, detectCompat } from "../../src/providers/openai-completions.js";
import { buildRequest as buildResponses } from "../../src/providers/openai-responses/build-request.js";
import type { Context, Model } from "../../src/types.js";

/** `PI_CACHE_RETENTION=long` means long retention when the option is not given, as in the reference. */

const saved = process.env.PI_CACHE_RETENTION;
afterEach(() => {
	if (saved === undefined) delete process.env.PI_CACHE_RETENTION;
	else process.env.PI_CACHE_RETENTION = saved;
});

const context: Context = { systemPrompt: "Be brief.", messages: [{ role: "user", content: "Hi", timestamp: 0 }] };
const model = <TApi extends string>(api: TApi, provider: string, baseUrl: string): Model<TApi> => ({
	id: "m", name: "m", api, provider, baseUrl, reasoning: false, input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 100_000, maxTokens: 4096,
});

describe("PI_CACHE_RETENTION", () => {
	it("resolves the option first, then the variable, then short", () => {
		delete process.env.PI_CACHE_RETENTION;
		expect(resolveCacheRetention(undefined)).toBe("short");
		process.env.PI_CACHE_RETENTION = "long";
		expect(resolveCacheRetention(undefined)).toBe("long");
		expect(resolveCacheRetention("none")).toBe("none");
		process.env.PI_CACHE_RETENTION = "yes";
		expect(resolveCacheRetention(undefined)).toBe("short");
	});

	it("OpenAI Chat Completions sends prompt_cache_retention 24h", () => {
		const openai = model("openai-completions", "openai", "https://api.openai.com/v1");
		const send = () => buildCompletions(openai, context, { sessionId: "s1" }, detectCompat(openai), "k").body;
		delete process.env.PI_CACHE_RETENTION;
		expect(send().prompt_cache_retention).toBeUndefined();
		process.env.PI_CACHE_RETENTION = "long";
		expect(send()).toMatchObject({ prompt_cache_key: "s1", prompt_cache_retention: "24h" });
	});

	it("OpenAI Responses sends prompt_cache_retention 24h", () => {
		const openai = model("openai-responses", "openai", "https://api.openai.com/v1");
		process.env.PI_CACHE_RETENTION = "long";
		expect(buildResponses(openai, context, { sessionId: "s1" }, "k").body).toMatchObject({ prompt_cache_retention: "24h" });
	});

	it("Anthropic marks the cache with a 1h ttl", () => {
		const claude = model("anthropic-messages", "anthropic", "https://api.anthropic.com");
		process.env.PI_CACHE_RETENTION = "long";
		expect(JSON.stringify(buildAnthropic(claude, context, {}).body)).toContain('"ttl":"1h"');
		delete process.env.PI_CACHE_RETENTION;
		expect(JSON.stringify(buildAnthropic(claude, context, {}).body)).not.toContain('"ttl"');
	});
});
