/**
 * Structured output with a zod schema on all four APIs, over the real `structured-output`
 * captures replayed in random chunks: the request carries zod's JSON Schema with each API's
 * adaptation (golden files), `output` is zod's output value (its transform applied), and a reply
 * that zod refuses ends with `error` naming the path. `partialOutput` stays the unvalidated parse.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { complete, stream } from "../../src/stream.js";
import { loadFixture, type ReplayServer, sseResponse, startReplayServer } from "../../src/testing/index.js";
import type { Api, Model } from "../../src/types.js";
import { alteredFixture, BOOK, collectOutput } from "../structured-output/helpers.js";
import { zodBook } from "./schemas.js";

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer({ chunking: { minChunkBytes: 1, maxChunkBytes: 48 } });
});
afterAll(() => server.close());

function model(api: Api, id: string, path: string): Model<Api> {
	return { id, name: id, api, provider: "openai", baseUrl: `${server.url}${path}`, reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 200_000, maxTokens: 16_000 };
}

const PROMPT = { messages: [{ role: "user" as const, content: "Please recommend the most popular book by Patrick Rothfuss", timestamp: 0 }] };

const APIS = [
	{
		api: "openai-completions",
		model: () => model("openai-completions", "gpt-4o", "/v1"),
		schemaIn: (body: Record<string, unknown>) => body.response_format,
		/** The capture with its rating changed from 7 to 7.5. */
		notAnInteger: () => alteredFixture("openai-completions", "structured-output", '"content":"7"', '"content":"7.5"'),
	},
	{
		api: "openai-responses",
		model: () => model("openai-responses", "gpt-4o", "/v1"),
		schemaIn: (body: Record<string, unknown>) => body.text,
		notAnInteger: () => {
			const bytes = alteredFixture("openai-responses", "structured-output", '"delta":"7"', '"delta":"7.5"');
			return Buffer.from(bytes.toString("utf8").split('\\"rating\\":7}').join('\\"rating\\":7.5}'));
		},
	},
	{
		api: "anthropic-messages",
		model: () => model("anthropic-messages", "claude-sonnet-4-5-20250929", ""),
		schemaIn: (body: Record<string, unknown>) => body.output_config,
		notAnInteger: () => alteredFixture("anthropic-messages", "structured-output", 'rating\\":7}', 'rating\\":7.5}'),
	},
	{
		api: "google-generative-ai",
		model: () => model("google-generative-ai", "gemini-2.5-flash", "/v1beta"),
		schemaIn: (body: Record<string, unknown>) => body.generationConfig,
		notAnInteger: () => alteredFixture("google-generative-ai", "structured-output", 'rating\\":7}', 'rating\\":7.5}'),
	},
] as const;

describe("output.schema: a zod schema", () => {
	for (const testCase of APIS) {
		it(`${testCase.api}: zod's JSON Schema on the wire, and output is zod's output value`, async () => {
			server.reset();
			server.enqueue(sseResponse(loadFixture(testCase.api, "structured-output")));
			const { message, partials } = await collectOutput(stream(testCase.model(), PROMPT, { apiKey: "test-key", output: { schema: zodBook, name: "Book" } }));
			expect(message.errorMessage).toBeUndefined();
			expect(message.stopReason).toBe("stop");
			// The transform ran: the title as zod gives it back, not as the model wrote it.
			expect(message.output).toEqual({ ...BOOK, title: "the name of the wind" });
			// partialOutput is the incremental parse, before validation: the model's own text.
			expect(partials.at(-1)).toEqual(BOOK);
			const schema = testCase.schemaIn(server.requests[0]?.json as Record<string, unknown>);
			await expect(`${JSON.stringify(schema, null, "\t")}\n`).toMatchFileSnapshot(`golden/output.${testCase.api}.zod.json`);
		});

		it(`${testCase.api}: a reply zod refuses ends with error naming the path`, async () => {
			server.reset();
			server.enqueue(sseResponse(testCase.notAnInteger()));
			const reply = await complete(testCase.model(), PROMPT, { apiKey: "test-key", output: { schema: zodBook, name: "Book" } });
			expect(reply.stopReason).toBe("error");
			expect(reply.errorMessage).toBe('The reply does not match output schema "Book": /rating: Invalid input: expected int, received number');
			expect(reply.output).toBeUndefined();
		});
	}

	it("an optional zod field goes out nullable in OpenAI strict mode, and the model's null is dropped before zod validates", async () => {
		server.reset();
		server.enqueue(sseResponse(loadFixture("openai-completions", "structured-output")));
		const schema = zodBook.extend({ subtitle: z.string().optional() });
		const reply = await complete(APIS[0].model(), PROMPT, { apiKey: "test-key", output: { schema, name: "Book" } });
		expect(reply.stopReason).toBe("stop");
		const sent = (server.requests[0]?.json as { response_format: { json_schema: { schema: { properties: Record<string, unknown>; required: string[] } } } }).response_format.json_schema.schema;
		expect(sent.properties.subtitle).toEqual({ type: ["string", "null"] });
		expect(sent.required).toEqual(["title", "author", "rating", "subtitle"]);
		expect(reply.output).toEqual({ ...BOOK, title: "the name of the wind" });
	});

	it("a schema whose validator is asynchronous ends the reply with an error naming why", async () => {
		server.reset();
		server.enqueue(sseResponse(loadFixture("anthropic-messages", "structured-output")));
		const schema = zodBook.refine(async () => true);
		const reply = await complete(APIS[2].model(), PROMPT, { apiKey: "test-key", output: { schema, name: "Book" } });
		expect(reply.stopReason).toBe("error");
		expect(reply.errorMessage).toBe('Could not validate output "Book": its validator is asynchronous (~standard.validate returned a promise); structured output needs a schema that validates synchronously');
	});
});
