/**
 * streamProxy with zod schemas (browser side) against handleProxyRequest (server side) over real
 * HTTP, the replay server playing the provider with a real capture: the tools and the output
 * schema reach the server, and the provider, as zod's JSON Schema (a zod schema does not survive
 * JSON), and the browser validates the output with zod itself (its transform applied).
 */
import { type Model } from "@pi/ai";
import { loadFixture, type ReplayServer, sseResponse, startReplayServer } from "@pi/ai/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { streamProxy } from "../../src/index.js";
import { handleProxyRequest } from "../../src/proxy/proxy-server.js";
import { serveFetchHandler } from "../helpers/fetch-handler-server.js";

const APP_TOKEN = "app-token-123";
let provider: ReplayServer;
beforeAll(async () => {
	provider = await startReplayServer({ chunking: { minChunkBytes: 1, maxChunkBytes: 64 } });
});
afterAll(() => provider.close());

const clientModel: Model<"openai-completions"> = {
	id: "gpt-4o", name: "GPT-4o", api: "openai-completions", provider: "openai", baseUrl: "https://unused.example/v1",
	reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 128_000, maxTokens: 16_384,
};

describe("streamProxy with zod schemas", () => {
	it("sends the tools' and the output's JSON Schema; the browser's output is zod's value", async () => {
		provider.reset();
		provider.enqueue(sseResponse(loadFixture("openai-completions", "structured-output")));
		const proxy = await serveFetchHandler((request) =>
			handleProxyRequest(request, {
				authorize: (token) => token === APP_TOKEN,
				resolveModel: (requested) => (requested.id === clientModel.id ? { ...clientModel, baseUrl: `${provider.url}/v1` } : undefined),
				getApiKey: () => "sk-server",
			}),
		);
		try {
			const Book = z.object({ title: z.string().transform((title) => title.toLowerCase()), author: z.object({ first_name: z.string(), last_name: z.string() }), rating: z.number().int() });
			const lookUp = z.object({ isbn: z.string(), copies: z.number().default(1) });
			const context = { messages: [{ role: "user" as const, content: "Please recommend the most popular book by Patrick Rothfuss", timestamp: 0 }], tools: [{ name: "get_book_info", description: "Look up a book.", parameters: lookUp }] };
			const events = streamProxy(clientModel, context, { authToken: APP_TOKEN, proxyUrl: proxy.url, output: { schema: Book, name: "Book" } });
			const message = await events.result();
			expect(message.errorMessage).toBeUndefined();
			expect(message.output).toEqual({ title: "the name of the wind", author: { first_name: "Patrick", last_name: "Rothfuss" }, rating: 7 });
			const sent = provider.requests[0]?.json as { tools: { function: { parameters: unknown } }[]; response_format: { json_schema: { schema: { required: string[] } } } };
			expect(sent.tools[0]?.function.parameters).toEqual({ type: "object", properties: { isbn: { type: "string" }, copies: { default: 1, type: "number" } }, required: ["isbn"] });
			expect(sent.response_format.json_schema.schema.required).toEqual(["title", "author", "rating"]);
		} finally {
			await proxy.close();
		}
	});
});
