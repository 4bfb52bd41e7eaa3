import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamSimpleOpenAICompletions } from "../../../src/providers/openai-completions.js";
import { type ReplayServer, startReplayServer } from "../../../src/testing/index.js";
import type { Model, ThinkingLevel, Tool } from "../../../src/types.js";
import { ask, capture, completionsModel, FLAVOURS, type Flavour, providerHeaders } from "./helpers.js";

/** Golden request bodies for every option, per compat flavour where the flavours differ. */

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());

/** A schema with `$defs`/`$ref`, `additionalProperties`, `anyOf` and a nested object: sent as is. */
const SCHEMA = {
	type: "object",
	$defs: { unit: { type: "string", enum: ["celsius", "fahrenheit"] } },
	properties: {
		city: { type: "string", description: "City name" },
		unit: { $ref: "#/$defs/unit" },
		when: { anyOf: [{ type: "string", format: "date" }, { type: "null" }] },
		extra: { type: "object", additionalProperties: { type: "number" } },
	},
	required: ["city"],
	additionalProperties: false,
};
const TOOLS = [{ name: "get_weather", description: "Current weather", parameters: SCHEMA }] as unknown as Tool[];
const USER = [{ role: "user", content: "Hello" }];

const body = async (model: Model<"openai-completions">, options: Parameters<typeof capture>[3] = {}, tools?: Tool[]) =>
	(await capture(server, model, ask("Hello", tools ? { tools } : {}), { apiKey: "sk-test", ...options })).request.json;

describe("golden: temperature, maxTokens, tools, tool_choice per flavour", () => {
	const GOLDEN: Record<Flavour, Record<string, unknown>> = {
		openai: {
			model: "o4-mini",
			messages: USER,
			stream: true,
			stream_options: { include_usage: true },
			max_completion_tokens: 512,
			temperature: 0.3,
			tools: [{ type: "function", function: { name: "get_weather", description: "Current weather", parameters: SCHEMA, strict: false } }],
			tool_choice: "required",
			store: false,
		},
		groq: {
			model: "openai/gpt-oss-120b",
			messages: USER,
			stream: true,
			stream_options: { include_usage: true },
			max_completion_tokens: 512,
			temperature: 0.3,
			tools: [{ type: "function", function: { name: "get_weather", description: "Current weather", parameters: SCHEMA } }],
			tool_choice: "required",
		},
		deepseek: {
			model: "deepseek-reasoner",
			messages: USER,
			stream: true,
			stream_options: { include_usage: true },
			max_tokens: 512,
			temperature: 0.3,
			tools: [{ type: "function", function: { name: "get_weather", description: "Current weather", parameters: SCHEMA } }],
			tool_choice: "required",
		},
		mistral: {
			model: "magistral-medium-2507",
			messages: USER,
			stream: true,
			max_tokens: 512,
			temperature: 0.3,
			tools: [{ type: "function", function: { name: "get_weather", description: "Current weather", parameters: SCHEMA } }],
			tool_choice: "required",
		},
		openrouter: {
			model: "openai/gpt-5",
			messages: USER,
			stream: true,
			stream_options: { include_usage: true },
			max_tokens: 512,
			temperature: 0.3,
			tools: [{ type: "function", function: { name: "get_weather", description: "Current weather", parameters: SCHEMA } }],
			tool_choice: "required",
		},
		ollama: {
			model: "gpt-oss:20b",
			messages: USER,
			stream: true,
			stream_options: { include_usage: true },
			max_tokens: 512,
			temperature: 0.3,
			tools: [{ type: "function", function: { name: "get_weather", description: "Current weather", parameters: SCHEMA } }],
			tool_choice: "required",
		},
	};
	for (const flavour of Object.keys(GOLDEN) as Flavour[]) {
		it(flavour, async () => {
			expect(await body(FLAVOURS[flavour], { temperature: 0.3, maxTokens: 512, toolChoice: "required" }, TOOLS)).toEqual(GOLDEN[flavour]);
		});
	}

	it("a named tool_choice and strict tools where the server supports strict mode", async () => {
		const json = (await body(FLAVOURS.openai, { toolChoice: { type: "function", function: { name: "get_weather" } }, strictTools: true }, TOOLS)) as Record<string, unknown>;
		expect(json.tool_choice).toEqual({ type: "function", function: { name: "get_weather" } });
		expect(json.tools).toEqual([
			{ type: "function", function: { name: "get_weather", description: "Current weather", parameters: SCHEMA, strict: true } },
		]);
	});

	it("nothing optional is sent when no option is set", async () => {
		expect(await body(completionsModel({ provider: "acme" }))).toEqual({
			model: "gpt-4o-mini",
			messages: USER,
			stream: true,
			stream_options: { include_usage: true },
		});
	});
});

describe("golden: reasoning levels through streamSimple", () => {
	const effort = async (model: Model<"openai-completions">, reasoning: ThinkingLevel | undefined) => {
		const { request } = await capture(server, model, ask(), { apiKey: "sk-test", reasoning }, streamSimpleOpenAICompletions);
		return (request.json as { reasoning_effort?: string }).reasoning_effort;
	};
	const LEVELS: ThinkingLevel[] = ["minimal", "low", "medium", "high", "xhigh"];
	const table = async (model: Model<"openai-completions">) => {
		const values: (string | undefined)[] = [];
		for (const level of LEVELS) values.push(await effort(model, level));
		return values;
	};

	it("OpenAI o-series: minimal → low, xhigh → high", async () => {
		expect(await table(FLAVOURS.openai)).toEqual(["low", "low", "medium", "high", "high"]);
	});

	it("OpenAI gpt-5: minimal kept, xhigh → high; gpt-5.2: xhigh kept", async () => {
		expect(await table(completionsModel({ id: "gpt-5", reasoning: true }))).toEqual(["minimal", "low", "medium", "high", "high"]);
		expect(await table(completionsModel({ id: "gpt-5.2", reasoning: true }))).toEqual(["low", "low", "medium", "high", "xhigh"]);
	});

	it("Groq and Ollama: low..high", async () => {
		expect(await table(FLAVOURS.groq)).toEqual(["low", "low", "medium", "high", "high"]);
		expect(await table(FLAVOURS.ollama)).toEqual(["low", "low", "medium", "high", "high"]);
	});

	it("OpenRouter: every level as is", async () => {
		expect(await table(FLAVOURS.openrouter)).toEqual(["minimal", "low", "medium", "high", "xhigh"]);
	});

	it("servers without reasoning_effort (DeepSeek, Mistral) get none", async () => {
		expect(await table(FLAVOURS.deepseek)).toEqual([undefined, undefined, undefined, undefined, undefined]);
		expect(await table(FLAVOURS.mistral)).toEqual([undefined, undefined, undefined, undefined, undefined]);
	});

	it("a model without reasoning gets none, and no level means none", async () => {
		expect(await effort(completionsModel({ id: "gpt-4o", reasoning: false }), "high")).toBeUndefined();
		expect(await effort(FLAVOURS.openai, undefined)).toBeUndefined();
	});

	it("a compat override of one level wins", async () => {
		const model = { ...FLAVOURS.groq, compat: { reasoningEffortMap: { high: "default" } } };
		expect(await effort(model, "high")).toBe("default");
	});

	it("thinkingBudgets never reach the body", async () => {
		const { request } = await capture(
			server,
			FLAVOURS.openai,
			ask(),
			{ apiKey: "sk-test", reasoning: "low", thinkingBudgets: { low: 999 } },
			streamSimpleOpenAICompletions,
		);
		expect(request.json).toEqual({ model: "o4-mini", messages: USER, stream: true, stream_options: { include_usage: true }, reasoning_effort: "low", store: false });
	});
});

describe("golden: caching and metadata", () => {
	it("OpenAI: sessionId becomes prompt_cache_key; long retention adds prompt_cache_retention", async () => {
		expect(await body(FLAVOURS.openai, { sessionId: "s-1" })).toEqual({
			model: "o4-mini",
			messages: USER,
			stream: true,
			stream_options: { include_usage: true },
			store: false,
			prompt_cache_key: "s-1",
		});
		expect(await body(FLAVOURS.openai, { sessionId: "s-1", cacheRetention: "long" })).toMatchObject({ prompt_cache_key: "s-1", prompt_cache_retention: "24h" });
		expect(await body(FLAVOURS.openai, { sessionId: "s-1", cacheRetention: "none" })).not.toHaveProperty("prompt_cache_key");
	});

	it("other servers get no cache key", async () => {
		expect(await body(FLAVOURS.groq, { sessionId: "s-1" })).not.toHaveProperty("prompt_cache_key");
	});

	it("metadata is not sent unless the compat says so", async () => {
		expect(await body(FLAVOURS.openai, { metadata: { user_id: "u-1" } })).not.toHaveProperty("metadata");
	});

	it("with supportsMetadata, OpenAI gets metadata (values as strings) and the store: true it requires", async () => {
		const model = { ...FLAVOURS.openai, compat: { supportsMetadata: true } };
		expect(await body(model, { metadata: { user_id: "u-1", tier: 2 } })).toEqual({
			model: "o4-mini",
			messages: USER,
			stream: true,
			stream_options: { include_usage: true },
			store: true,
			metadata: { user_id: "u-1", tier: "2" },
		});
	});
});

describe("golden: URL and headers", () => {
	it("Bearer key, then model.headers, then options.headers, each replacing case-insensitively", async () => {
		const model = { ...FLAVOURS.openrouter, headers: { "HTTP-Referer": "https://app.example", "X-Title": "Model title" } };
		const { request } = await capture(server, model, ask(), {
			apiKey: "sk-test",
			headers: { "x-title": "Call title", authorization: "Bearer override" },
		});
		expect(providerHeaders(request.headers)).toEqual({
			authorization: "Bearer override",
			"http-referer": "https://app.example",
			"x-title": "Call title",
		});
	});

	it("Azure: the key goes in api-key and the api-version query is kept", async () => {
		const model = completionsModel({ provider: "azure", id: "gpt-4o" });
		const { request } = await capture(server, model, ask(), { apiKey: "az-key" }, (m, c, o) =>
			streamSimpleOpenAICompletions({ ...m, baseUrl: `${server.url}/openai/deployments/gpt-4o?api-version=2024-10-21` }, c, o),
		);
		expect(request.path).toBe("/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21");
		expect(providerHeaders(request.headers)).toEqual({ "api-key": "az-key" });
	});

	it("onPayload may replace the body; the replacement is what is sent", async () => {
		const { request } = await capture(server, FLAVOURS.ollama, ask(), {
			onPayload: (payload, model) => ({ ...(payload as object), model: `${model.id}-override`, keep_alive: "5m" }),
		});
		expect(request.json).toEqual({ model: "gpt-oss:20b-override", messages: USER, stream: true, stream_options: { include_usage: true }, keep_alive: "5m" });
	});

	it("onPayload returning undefined keeps the body", async () => {
		let seen: unknown;
		const { request } = await capture(server, FLAVOURS.ollama, ask(), {
			onPayload: (payload) => {
				seen = payload;
				return undefined;
			},
		});
		expect(request.json).toEqual(seen);
	});
});
