/**
 * What each API's request carries for a tool whose `parameters` is a typebox, zod, valibot or
 * arktype schema: the library's own JSON Schema (`~standard.jsonSchema.input`), adapted per API
 * exactly as a typebox schema is. The bodies are compared to golden files (test/standard-schema/
 * golden/), each answered with a real capture by the local replay server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { complete } from "../../src/stream.js";
import { loadFixture, type ReplayServer, sseResponse, startReplayServer } from "../../src/testing/index.js";
import type { Api, Model } from "../../src/types.js";
import { LIBRARIES, lookUpTool } from "./schemas.js";

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer({ chunking: { minChunkBytes: 1, maxChunkBytes: 48 } });
});
afterAll(() => server.close());

function model(api: Api, id: string, path: string, compat?: Model<Api>["compat"]): Model<Api> {
	return { id, name: id, api, provider: "test", baseUrl: `${server.url}${path}`, reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 200_000, maxTokens: 16_000, ...(compat ? { compat } : {}) };
}

const WIRES = [
	{ name: "openai-completions", model: () => model("openai-completions", "gpt-4o", "/v1"), capture: "text-basic", tools: (body: Record<string, unknown>) => body.tools },
	{ name: "anthropic-messages", model: () => model("anthropic-messages", "claude-sonnet-4-5-20250929", ""), capture: "text-basic", tools: (body: Record<string, unknown>) => body.tools },
	{ name: "openai-responses", model: () => model("openai-responses", "gpt-4o", "/v1"), capture: "text-basic", tools: (body: Record<string, unknown>) => body.tools },
	{ name: "google-generative-ai", model: () => model("google-generative-ai", "gemini-2.5-flash", "/v1beta"), capture: "text-basic", tools: (body: Record<string, unknown>) => body.tools },
	{
		// Gemini's OpenAPI subset (`parameters`): the library's openapi-3.0 schema where it has that
		// target (zod, valibot), else its draft 2020-12 one (arktype), then converted alike.
		name: "google-generative-ai.parameters",
		model: () => model("google-generative-ai", "gemini-2.5-flash", "/v1beta", { toolSchemaField: "parameters" }),
		capture: "text-basic",
		tools: (body: Record<string, unknown>) => body.tools,
	},
] as const;

describe("the wire carries the library's JSON Schema", () => {
	for (const wire of WIRES) {
		for (const library of LIBRARIES) {
			it(`${wire.name}: ${library}`, async () => {
				server.reset();
				const api = wire.model().api;
				server.enqueue(sseResponse(loadFixture(api, wire.capture)));
				const reply = await complete(wire.model(), { messages: [{ role: "user", content: "Look up 0-7653-1178-X", timestamp: 0 }], tools: [lookUpTool(library)] }, { apiKey: "test-key" });
				expect(reply.errorMessage).toBeUndefined();
				expect(reply.stopReason).toBe("stop");
				const tools = wire.tools(server.requests[0]?.json as Record<string, unknown>);
				await expect(`${JSON.stringify(tools, null, "\t")}\n`).toMatchFileSnapshot(`golden/${wire.name}.${library}.json`);
			});
		}
	}

	it("the same schema object in a second request sends the same bytes (cached, not re-converted)", async () => {
		server.reset();
		const tool = lookUpTool("zod");
		for (let i = 0; i < 2; i++) server.enqueue(sseResponse(loadFixture("openai-completions", "text-basic")));
		for (let i = 0; i < 2; i++) await complete(WIRES[0].model(), { messages: [{ role: "user", content: "Hi", timestamp: 0 }], tools: [tool] }, { apiKey: "test-key" });
		const [first, second] = server.requests.map((request) => JSON.stringify((request.json as { tools: unknown }).tools));
		expect(second).toBe(first);
	});
});
