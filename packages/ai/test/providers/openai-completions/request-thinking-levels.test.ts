import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getModel } from "../../../src/models.js";
import { streamSimpleOpenAICompletions } from "../../../src/providers/openai-completions.js";
import { type ReplayServer, startReplayServer } from "../../../src/testing/index.js";
import type { Model, OpenAICompletionsCompat } from "../../../src/types.js";
import { ask, capture, completionsModel } from "./helpers.js";

/** Golden bodies for per-model thinking levels and the reference's `thinkingFormat` values. */

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());

const body = async (model: Model<"openai-completions">, options: Parameters<typeof capture>[3] = {}) =>
	(await capture(server, model, ask("Hello"), { apiKey: "sk-test", ...options }, streamSimpleOpenAICompletions)).request.json as Record<string, unknown>;

describe("Groq qwen3-32b: reasoning_effort is only ever `default`", () => {
	const qwen = getModel("groq", "qwen/qwen3-32b");

	it("has the catalog's per-model levels", () => {
		expect(qwen.thinkingLevelMap).toEqual({ minimal: null, low: null, medium: null, high: "default" });
	});

	it.each(["minimal", "low", "medium", "high", "xhigh"] as const)("reasoning %s sends reasoning_effort default", async (reasoning) => {
		expect(await body(qwen, { reasoning })).toEqual({
			model: "qwen/qwen3-32b",
			messages: [{ role: "user", content: "Hello" }],
			stream: true,
			stream_options: { include_usage: true },
			reasoning_effort: "default",
		});
	});

	it("no reasoning asked sends no reasoning_effort (the model's own default)", async () => {
		expect((await body(qwen)).reasoning_effort).toBeUndefined();
	});
});

describe("thinkingLevelMap on a user's model", () => {
	it("an `off` value is sent when no reasoning is asked for", async () => {
		const model = completionsModel({ provider: "groq", id: "qwen/qwen3-32b", reasoning: true, thinkingLevelMap: { off: "none", high: "default" } });
		expect((await body(model)).reasoning_effort).toBe("none");
	});
});

describe("the reference's thinkingFormat values pick the request format", () => {
	const model = (thinkingFormat: OpenAICompletionsCompat["thinkingFormat"]) =>
		completionsModel({ provider: "my-server", id: "some-model", reasoning: true, compat: { thinkingFormat, supportsReasoningEffort: true } });
	const cases: [OpenAICompletionsCompat["thinkingFormat"], Record<string, unknown>, Record<string, unknown>][] = [
		["openai", { reasoning_effort: "high" }, {}],
		["openrouter", { reasoning: { effort: "high" } }, { reasoning: { effort: "none" } }],
		["deepseek", { thinking: { type: "enabled" }, reasoning_effort: "high" }, { thinking: { type: "disabled" } }],
		["zai", { enable_thinking: true }, { enable_thinking: false }],
		["qwen", { enable_thinking: true }, { enable_thinking: false }],
		["qwen-chat-template", { chat_template_kwargs: { enable_thinking: true, preserve_thinking: true } }, { chat_template_kwargs: { enable_thinking: false, preserve_thinking: true } }],
	];
	it.each(cases)("%s", async (format, on, off) => {
		const fields = (json: Record<string, unknown>) => {
			const { model: _m, messages: _ms, stream: _s, stream_options: _o, ...rest } = json;
			return rest;
		};
		expect(fields(await body(model(format), { reasoning: "high" }))).toEqual(on);
		expect(fields(await body(model(format)))).toEqual(off);
	});
});

describe("routing preferences of the reference's compat", () => {
	it("openRouterRouting becomes the body's provider field on OpenRouter", async () => {
		const model = completionsModel({ provider: "openrouter", id: "openai/gpt-4o", compat: { openRouterRouting: { only: ["azure"], allow_fallbacks: false } } });
		// capture() re-points baseUrl at the replay server, so the OpenRouter host check needs the
		// host in the path; test the builder directly instead.
		const { buildRequest, detectCompat } = await import("../../../src/providers/openai-completions.js");
		const openrouter = { ...model, baseUrl: "https://openrouter.ai/api/v1" };
		expect(buildRequest(openrouter, ask(), {}, detectCompat(openrouter), "k").body.provider).toEqual({ only: ["azure"], allow_fallbacks: false });
		expect(buildRequest(model, ask(), {}, detectCompat(model), "k").body.provider).toBeUndefined();
	});
});
