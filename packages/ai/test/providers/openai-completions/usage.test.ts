import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamOpenAICompletions } from "../../../src/providers/openai-completions.js";
import { parseUsage } from "../../../src/providers/openai-completions/parse-usage.js";
import { type ReplayServer, sseResponse, startReplayServer } from "../../../src/testing/index.js";
import { ask, chunk, completionsModel, data } from "./helpers.js";

/** The CONFORMANCE usage table for Chat Completions, and where usage may arrive. */

describe("parseUsage", () => {
	it("input excludes cached tokens; output is completion_tokens", () => {
		expect(parseUsage({ prompt_tokens: 339, completion_tokens: 83, prompt_tokens_details: { cached_tokens: 320 } })).toEqual({
			input: 19,
			output: 83,
			cacheRead: 320,
			cacheWrite: 0,
		});
	});

	it("DeepSeek's prompt_cache_hit_tokens counts when prompt_tokens_details has no cached_tokens", () => {
		expect(parseUsage({ prompt_tokens: 100, completion_tokens: 5, prompt_cache_hit_tokens: 64 })).toEqual({ input: 36, output: 5, cacheRead: 64, cacheWrite: 0 });
		expect(parseUsage({ prompt_tokens: 100, completion_tokens: 5, prompt_tokens_details: null, prompt_cache_hit_tokens: 64 })).toMatchObject({ cacheRead: 64 });
	});

	it("prompt_tokens_details.cached_tokens wins over prompt_cache_hit_tokens", () => {
		expect(parseUsage({ prompt_tokens: 100, prompt_tokens_details: { cached_tokens: 10 }, prompt_cache_hit_tokens: 64 })).toMatchObject({ input: 90, cacheRead: 10 });
	});

	it("adds reasoning tokens that a server (xAI) counts outside completion_tokens but inside total_tokens", () => {
		const xai = { prompt_tokens: 291, completion_tokens: 26, total_tokens: 513, completion_tokens_details: { reasoning_tokens: 196 } };
		expect(parseUsage(xai)).toMatchObject({ output: 222 });
		// OpenAI and DeepSeek include reasoning in completion_tokens already: nothing is added.
		const openai = { prompt_tokens: 15, completion_tokens: 78, total_tokens: 93, completion_tokens_details: { reasoning_tokens: 64 } };
		expect(parseUsage(openai)).toMatchObject({ output: 78 });
	});

	it("missing or invalid fields count 0", () => {
		expect(parseUsage({})).toEqual({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
		expect(parseUsage({ prompt_tokens: -3, completion_tokens: Number.NaN })).toEqual({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
	});
});

describe("usage in the stream", () => {
	let server: ReplayServer;
	beforeAll(async () => {
		server = await startReplayServer();
	});
	afterAll(() => server.close());

	it("Groq's x_groq.usage alone is read", async () => {
		server.enqueue(
			sseResponse(chunk({ content: "Hi" }) + chunk({}, "stop", { x_groq: { id: "req_1", usage: { prompt_tokens: 21, completion_tokens: 4 } } }) + "data: [DONE]\n\n"),
		);
		const message = await streamOpenAICompletions(completionsModel({ provider: "groq", baseUrl: `${server.url}/v1` }), ask(), { apiKey: "k-test-000" }).result();
		expect(message.usage).toMatchObject({ input: 21, output: 4, cacheRead: 0, totalTokens: 25 });
	});

	it("a later usage replaces an earlier one (usage: null chunks are skipped)", async () => {
		server.enqueue(
			sseResponse(
				chunk({ content: "Hi" }, null, { usage: null }) +
					chunk({}, "stop", { usage: { prompt_tokens: 1, completion_tokens: 1 } }) +
					data({ id: "x", choices: [], usage: { prompt_tokens: 30, completion_tokens: 7 } }) +
					"data: [DONE]\n\n",
			),
		);
		const message = await streamOpenAICompletions(completionsModel({ baseUrl: `${server.url}/v1` }), ask(), { apiKey: "k-test-000" }).result();
		expect(message.usage).toMatchObject({ input: 30, output: 7, totalTokens: 37 });
	});
});
