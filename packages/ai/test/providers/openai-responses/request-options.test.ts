/**
 * Golden request bodies and headers for every option of the Responses provider: sampling, limits,
 * storage, background, tool choice, caching, metadata, service tier, headers and onPayload.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { streamOpenAIResponses } from "../../../src/providers/openai-responses.js";
import { loadFixture, type ReplayServer, sseResponse, startReplayServer } from "../../../src/testing/index.js";
import { API, captureRequest, responsesModel, TEST_KEY, userContext } from "./helpers.js";

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(async () => {
	await server.close();
});
const savedKey = process.env.OPENAI_API_KEY;
afterEach(() => {
	if (savedKey === undefined) delete process.env.OPENAI_API_KEY;
	else process.env.OPENAI_API_KEY = savedKey;
});

const BASE = { model: "gpt-5", stream: true, store: false, input: [{ role: "user", content: [{ type: "input_text", text: "Hello" }] }] };

describe("request body: options", () => {
	it("sends only the essentials by default, with the key as a bearer token", async () => {
		const { body, headers, path } = await captureRequest(server, userContext());
		expect(path).toBe("/v1/responses");
		expect(body).toEqual(BASE);
		expect(headers.authorization).toBe(`Bearer ${TEST_KEY}`);
		expect(headers["content-type"]).toBe("application/json");
	});

	it("maps temperature, maxTokens, store, background, toolChoice and serviceTier", async () => {
		const { body } = await captureRequest(server, userContext(), {
			temperature: 0.2,
			maxTokens: 512,
			store: true,
			background: true,
			toolChoice: { type: "function", name: "lookup" },
			serviceTier: "flex",
		});
		expect(body).toEqual({
			...BASE,
			store: true,
			background: true,
			temperature: 0.2,
			max_output_tokens: 512,
			tool_choice: { type: "function", name: "lookup" },
			service_tier: "flex",
		});
	});

	it("sends tool_choice strings as they are", async () => {
		const { body } = await captureRequest(server, userContext(), { toolChoice: "required" });
		expect(body).toEqual({ ...BASE, tool_choice: "required" });
	});

	it("uses sessionId as prompt_cache_key, 24h retention for long caching, nothing for cacheRetention none", async () => {
		const short = await captureRequest(server, userContext(), { sessionId: "session-42" });
		expect(short.body).toEqual({ ...BASE, prompt_cache_key: "session-42" });
		const long = await captureRequest(server, userContext(), { sessionId: "session-42", cacheRetention: "long" });
		expect(long.body).toEqual({ ...BASE, prompt_cache_key: "session-42", prompt_cache_retention: "24h" });
		const none = await captureRequest(server, userContext(), { sessionId: "session-42", cacheRetention: "none" });
		expect(none.body).toEqual(BASE);
	});

	it("leaves prompt caching fields out for servers whose compat says they lack them", async () => {
		const model = responsesModel(server, { compat: { supportsPromptCacheKey: false } });
		const { body } = await captureRequest(server, userContext(), { sessionId: "s", cacheRetention: "long" }, model);
		expect(body).toEqual(BASE);
	});

	it("sends metadata as a map of strings", async () => {
		const { body } = await captureRequest(server, userContext(), { metadata: { user_id: "u-1", attempt: 3, flag: true, skip: undefined, none: null } });
		expect(body).toEqual({ ...BASE, metadata: { user_id: "u-1", attempt: "3", flag: "true" } });
	});

	it("merges headers: provider defaults, then model.headers, then options.headers, whatever the case", async () => {
		const model = responsesModel(server, { headers: { "X-Model": "m", "X-Both": "model" } });
		const { headers } = await captureRequest(server, userContext(), { headers: { "x-both": "options", "X-Options": "o" } }, model);
		expect(headers["x-model"]).toBe("m");
		expect(headers["x-both"]).toBe("options");
		expect(headers["x-options"]).toBe("o");
		expect(headers.authorization).toBe(`Bearer ${TEST_KEY}`);
		const replaced = await captureRequest(server, userContext(), { headers: { authorization: "Bearer other" } });
		expect(replaced.headers.authorization).toBe("Bearer other");
	});

	it("lets onPayload replace the body, and sees the built one first", async () => {
		let seen: unknown;
		const { body } = await captureRequest(server, userContext(), {
			onPayload: (payload) => {
				seen = payload;
				return { ...(payload as object), custom: 1 };
			},
		});
		expect(seen).toEqual(BASE);
		expect(body).toEqual({ ...BASE, custom: 1 });
		const kept = await captureRequest(server, userContext(), { onPayload: async () => undefined });
		expect(kept.body).toEqual(BASE);
	});

	it("reads the key from OPENAI_API_KEY when none is passed", async () => {
		process.env.OPENAI_API_KEY = "sk-from-the-environment-123";
		const { headers } = await captureRequest(server, userContext(), { apiKey: undefined });
		expect(headers.authorization).toBe("Bearer sk-from-the-environment-123");
	});

	it("fails without a request when an OpenAI key is missing, naming the variable", async () => {
		delete process.env.OPENAI_API_KEY;
		const before = server.requests.length;
		const message = await streamOpenAIResponses(responsesModel(server), userContext()).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe('No API key for provider "openai": pass options.apiKey or set OPENAI_API_KEY.');
		expect(server.requests.length).toBe(before);
	});

	it("joins baseUrl and /responses without a double slash", async () => {
		server.enqueue(sseResponse(loadFixture(API, "text-basic")));
		const model = responsesModel(server, { baseUrl: `${server.url}/api/v1/` });
		const message = await streamOpenAIResponses(model, userContext(), { apiKey: TEST_KEY }).result();
		expect(message.stopReason).toBe("stop");
		expect(server.requests[server.requests.length - 1]?.path).toBe("/api/v1/responses");
	});
});
