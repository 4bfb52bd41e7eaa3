/** The request line, headers and common options: URL without key, header precedence, onPayload, keys. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { streamGoogle } from "../../../src/providers/google-generative-ai.js";
import { type ReplayServer, sseResponse, startReplayServer } from "../../../src/testing/index.js";
import { capturedBody, geminiModel, HELLO, OK_STREAM, onServer, TEST_KEY } from "./helpers.js";

describe("google-generative-ai request: URL, headers and options", () => {
	let server: ReplayServer;
	const savedEnv = { GEMINI_API_KEY: process.env.GEMINI_API_KEY, GOOGLE_API_KEY: process.env.GOOGLE_API_KEY };
	beforeAll(async () => {
		server = await startReplayServer();
	});
	afterAll(() => server.close());
	afterEach(() => {
		for (const [name, value] of Object.entries(savedEnv)) {
			if (value === undefined) delete process.env[name];
			else process.env[name] = value;
		}
	});

	it("posts to models/{id}:streamGenerateContent?alt=sse with the key only in x-goog-api-key", async () => {
		await capturedBody(server, geminiModel("gemini-2.5-flash"), HELLO);
		const request = server.requests[0];
		expect(request?.method).toBe("POST");
		expect(request?.path).toBe("/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
		expect(request?.path).not.toContain(TEST_KEY);
		expect(request?.path).not.toContain("key=");
		expect(request?.headers["x-goog-api-key"]).toBe(TEST_KEY);
		expect(request?.headers["content-type"]).toBe("application/json");
	});

	it("tolerates a trailing slash on baseUrl and a models/ prefix on the id", async () => {
		server.reset();
		server.enqueue(sseResponse(OK_STREAM));
		const model = { ...geminiModel("models/gemini-2.5-pro"), baseUrl: `${server.url}/v1beta/` };
		await streamGoogle(model, HELLO, { apiKey: TEST_KEY }).result();
		expect(server.requests[0]?.path).toBe("/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse");
	});

	it("merges headers: provider defaults, then model.headers, then options.headers", async () => {
		const model = geminiModel("gemini-2.5-flash", { headers: { "x-team": "model", "x-model-only": "m" } });
		await capturedBody(server, model, HELLO, { headers: { "x-team": "options", "x-goog-api-key": "override-key" } });
		const headers = server.requests[0]?.headers ?? {};
		expect(headers["x-team"]).toBe("options");
		expect(headers["x-model-only"]).toBe("m");
		expect(headers["x-goog-api-key"]).toBe("override-key");
	});

	it("sends temperature and maxTokens in generationConfig", async () => {
		expect(await capturedBody(server, geminiModel("gemini-2.0-flash", { reasoning: false }), HELLO, { temperature: 0.3, maxTokens: 256 })).toEqual({
			contents: [{ role: "user", parts: [{ text: "Hello" }] }],
			generationConfig: { temperature: 0.3, maxOutputTokens: 256 },
		});
	});

	it("ignores options Gemini has no field for (sessionId, metadata, cacheRetention)", async () => {
		expect(await capturedBody(server, geminiModel(), HELLO, { sessionId: "s1", metadata: { user_id: "u" }, cacheRetention: "long" })).toEqual({
			contents: [{ role: "user", parts: [{ text: "Hello" }] }],
		});
	});

	it("lets onPayload see the body and replace it", async () => {
		let seen: unknown;
		const body = await capturedBody(server, geminiModel(), HELLO, {
			onPayload: (payload, model) => {
				seen = { payload, model: model.id };
				return { ...(payload as object), safetySettings: [{ category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_NONE" }] };
			},
		});
		expect(seen).toEqual({ payload: { contents: [{ role: "user", parts: [{ text: "Hello" }] }] }, model: "gemini-2.5-flash" });
		expect(body).toEqual({
			contents: [{ role: "user", parts: [{ text: "Hello" }] }],
			safetySettings: [{ category: "HARM_CATEGORY_HARASSMENT", threshold: "BLOCK_NONE" }],
		});
	});

	it("keeps the body when onPayload returns undefined (async)", async () => {
		const body = await capturedBody(server, geminiModel(), HELLO, { onPayload: async () => undefined });
		expect(body).toEqual({ contents: [{ role: "user", parts: [{ text: "Hello" }] }] });
	});

	it("reads GEMINI_API_KEY, then GOOGLE_API_KEY, when no apiKey is given", async () => {
		delete process.env.GEMINI_API_KEY;
		process.env.GOOGLE_API_KEY = "google-env-key";
		server.reset();
		server.enqueue(sseResponse(OK_STREAM), sseResponse(OK_STREAM));
		const model = onServer(server, geminiModel());
		expect((await streamGoogle(model, HELLO).result()).stopReason).toBe("stop");
		process.env.GEMINI_API_KEY = "gemini-env-key";
		expect((await streamGoogle(model, HELLO).result()).stopReason).toBe("stop");
		expect(server.requests.map((request) => request.headers["x-goog-api-key"])).toEqual(["google-env-key", "gemini-env-key"]);
	});

	it("fails without a request when there is no key, naming the variables to set", async () => {
		delete process.env.GEMINI_API_KEY;
		delete process.env.GOOGLE_API_KEY;
		server.reset();
		const message = await streamGoogle(onServer(server, geminiModel()), HELLO).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe('No API key for provider "google": set GEMINI_API_KEY or GOOGLE_API_KEY, or pass options.apiKey.');
		expect(server.requests).toHaveLength(0);
	});
});
