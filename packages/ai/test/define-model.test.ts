import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { defineModel, type ModelDefinition } from "../src/define-model.js";
import { complete } from "../src/stream.js";
import { type ReplayServer, sseResponse, startReplayServer } from "../src/testing/index.js";
import type { Model } from "../src/types.js";

describe("defineModel", () => {
	it("fills every field of a Model from an id and a base URL, with the documented defaults", () => {
		const model = defineModel({ id: "llama3.1:8b", baseUrl: "http://localhost:11434/v1" });
		expect(model).toEqual({
			id: "llama3.1:8b",
			name: "llama3.1:8b",
			api: "openai-completions",
			provider: "openai-compatible",
			baseUrl: "http://localhost:11434/v1",
			reasoning: false,
			input: ["text"],
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
			contextWindow: 128_000,
			maxTokens: 8_192,
		});
	});

	it("lets every field be overridden, some prices alone, and keeps optional fields only when given", () => {
		const headers = { "x-team": "search" };
		const model = defineModel({
			id: "claude-haiku-4-5",
			baseUrl: "https://gateway.example",
			api: "anthropic-messages",
			provider: "anthropic",
			name: "Haiku via the gateway",
			reasoning: true,
			input: ["text", "image"],
			cost: { input: 1, output: 5 },
			contextWindow: 200_000,
			maxTokens: 64_000,
			headers,
		});
		expect(model).toEqual({
			id: "claude-haiku-4-5",
			name: "Haiku via the gateway",
			api: "anthropic-messages",
			provider: "anthropic",
			baseUrl: "https://gateway.example",
			reasoning: true,
			input: ["text", "image"],
			cost: { input: 1, output: 5, cacheRead: 0, cacheWrite: 0 },
			contextWindow: 200_000,
			maxTokens: 64_000,
			headers,
		});
		expect(Object.keys(defineModel({ id: "m", baseUrl: "http://127.0.0.1:1" }))).not.toContain("compat");
	});

	it("never shares the definition's arrays with the model", () => {
		const input: ("text" | "image")[] = ["text"];
		const model = defineModel({ id: "m", baseUrl: "http://127.0.0.1:1", input });
		model.input.push("image");
		expect(input).toEqual(["text"]);
	});

	it("refuses an empty id and a base URL that is not http(s), naming the field", () => {
		expect(() => defineModel({ id: " ", baseUrl: "http://127.0.0.1:1" })).toThrow(new TypeError('defineModel: id must be a non-empty string, got " "'));
		expect(() => defineModel({ id: "m", baseUrl: "localhost:11434" })).toThrow("defineModel: baseUrl must be an http(s) URL");
		expect(() => defineModel({ id: "m", baseUrl: "not a url" })).toThrow("defineModel: baseUrl must be an http(s) URL");
	});

	it("is typed: { id, baseUrl } alone is a Model<'openai-completions'>, and api picks the type", () => {
		expectTypeOf(defineModel({ id: "m", baseUrl: "http://localhost:11434/v1" })).toEqualTypeOf<Model<"openai-completions">>();
		expectTypeOf(defineModel({ id: "m", baseUrl: "http://x", api: "anthropic-messages" })).toEqualTypeOf<Model<"anthropic-messages">>();
		expectTypeOf<{ id: string; baseUrl: string }>().toExtend<ModelDefinition>();
		// @ts-expect-error: baseUrl is required.
		expect(() => defineModel({ id: "m" })).toThrow("baseUrl");
		// @ts-expect-error: a wrong type for a field.
		defineModel({ id: "m", baseUrl: "http://x", contextWindow: "big" });
	});

	describe("against a server", () => {
		let server: ReplayServer;
		beforeAll(async () => {
			server = await startReplayServer();
		});
		afterAll(() => server.close());

		it("is a model complete() streams from, with no key for a local server", async () => {
			server.enqueue(sseResponse('data: {"id":"c1","choices":[{"index":0,"delta":{"content":"Hello!"}}]}\n\ndata: [DONE]\n\n'));
			const model = defineModel({ id: "llama3.1:8b", baseUrl: `${server.url}/v1` });
			const reply = await complete(model, { messages: [{ role: "user", content: "Hi", timestamp: 0 }] });
			expect(reply.stopReason).toBe("stop");
			expect(reply.content).toEqual([{ type: "text", text: "Hello!" }]);
			expect(server.requests[0]?.path).toBe("/v1/chat/completions");
			expect((server.requests[0]?.json as { model: string }).model).toBe("llama3.1:8b");
			expect(server.requests[0]?.headers.authorization).toBeUndefined();
		});
	});
});
