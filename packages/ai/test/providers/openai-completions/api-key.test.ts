import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { complete, completeSimple } from "../../../src/index.js";
import { streamOpenAICompletions } from "../../../src/providers/openai-completions.js";
import { type ReplayServer, sseResponse, startReplayServer } from "../../../src/testing/index.js";
import { ask, completionsModel, providerHeaders, textStream } from "./helpers.js";

/** Where the key comes from, when none is needed, and the built-in registration. */

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());
afterEach(() => vi.unstubAllEnvs());

describe("local servers need no key", () => {
	it("Ollama with only a baseUrl: no Authorization header, and the reply streams", async () => {
		server.reset();
		server.enqueue(sseResponse(textStream("Hello from Ollama")));
		const model = completionsModel({ provider: "ollama", id: "llama3.2", baseUrl: `${server.url}/v1` });
		const message = await streamOpenAICompletions(model, ask()).result();
		expect(message.stopReason).toBe("stop");
		expect(message.content).toEqual([{ type: "text", text: "Hello from Ollama" }]);
		expect(providerHeaders(server.requests[0]?.headers ?? {})).toEqual({});
	});

	it("llama.cpp under any provider name: no Authorization header", async () => {
		server.reset();
		server.enqueue(sseResponse(textStream()));
		const model = completionsModel({ provider: "my-llama", id: "local", baseUrl: `${server.url}/v1` });
		const message = await streamOpenAICompletions(model, ask()).result();
		expect(message.stopReason).toBe("stop");
		expect(server.requests[0]?.headers.authorization).toBeUndefined();
	});

	it("a hosted provider name on a local URL (a proxy, a test server) needs no key either", async () => {
		vi.stubEnv("OPENAI_API_KEY", "");
		server.reset();
		server.enqueue(sseResponse(textStream()));
		const message = await streamOpenAICompletions(completionsModel({ baseUrl: `${server.url}/v1` }), ask()).result();
		expect(message.stopReason).toBe("stop");
		expect(server.requests[0]?.headers.authorization).toBeUndefined();
	});
});

describe("hosted servers", () => {
	it("a missing key fails before any request, naming the variable to set", async () => {
		vi.stubEnv("GROQ_API_KEY", "");
		const model = completionsModel({ provider: "groq", id: "llama-3.3-70b-versatile", baseUrl: "https://api.groq.com/openai/v1" });
		const message = await streamOpenAICompletions(model, ask()).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain("GROQ_API_KEY");
		expect(message.errorMessage).toContain('"groq"');
	});

	it("the key comes from the provider's environment variable when no apiKey is given", async () => {
		vi.stubEnv("DEEPSEEK_API_KEY", "sk-from-env");
		server.reset();
		server.enqueue(sseResponse(textStream()));
		await streamOpenAICompletions(completionsModel({ provider: "deepseek", baseUrl: `${server.url}/v1` }), ask()).result();
		expect(server.requests[0]?.headers.authorization).toBe("Bearer sk-from-env");
	});

	it("a key from the environment echoed in an in-stream error is scrubbed", async () => {
		vi.stubEnv("DEEPSEEK_API_KEY", "sk-env-secret-77");
		server.reset();
		server.enqueue(sseResponse('event: error\ndata: {"error":{"message":"bad key sk-env-secret-77"}}\n\n'));
		const message = await streamOpenAICompletions(completionsModel({ provider: "deepseek", baseUrl: `${server.url}/v1` }), ask()).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain("bad key [REDACTED]");
		expect(message.errorMessage).not.toContain("sk-env-secret-77");
	});

	it("options.apiKey wins over the environment", async () => {
		vi.stubEnv("DEEPSEEK_API_KEY", "sk-from-env");
		server.reset();
		server.enqueue(sseResponse(textStream()));
		await streamOpenAICompletions(completionsModel({ provider: "deepseek", baseUrl: `${server.url}/v1` }), ask(), { apiKey: "sk-given" }).result();
		expect(server.requests[0]?.headers.authorization).toBe("Bearer sk-given");
	});
});

describe("built-in registration", () => {
	it("complete() and completeSimple() reach this provider for api openai-completions", async () => {
		server.reset();
		server.enqueue(sseResponse(textStream("via stream()")), sseResponse(textStream("via streamSimple()")));
		const model = completionsModel({ provider: "ollama", baseUrl: `${server.url}/v1`, reasoning: true });
		const first = await complete(model, ask());
		const second = await completeSimple(model, ask(), { reasoning: "high" });
		expect(first.content).toEqual([{ type: "text", text: "via stream()" }]);
		expect(second.content).toEqual([{ type: "text", text: "via streamSimple()" }]);
		expect(second.api).toBe("openai-completions");
		expect((server.requests[1]?.json as { reasoning_effort?: string }).reasoning_effort).toBe("high");
	});
});
