import { Type } from "typebox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamOpenAICompletions } from "../../../src/providers/openai-completions.js";
import { loadFixture, type ReplayServer, sseResponse, startReplayServer } from "../../../src/testing/index.js";
import { complete } from "../../../src/stream.js";
import type { Model, OutputOptions, TSchema } from "../../../src/types.js";
import { alteredFixture, BOOK, Book, BOOK_SUMMARY, BookSummary, collectOutput, expectGrowing } from "../../structured-output/helpers.js";
import { ask, capture, completionsModel, FLAVOURS } from "./helpers.js";

/** Structured output over Chat Completions, against real captures replayed in random chunks. */

const API = "openai-completions";
let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer({ chunking: { minChunkBytes: 1, maxChunkBytes: 48 } });
});
afterAll(() => server.close());

const model = (overrides: Partial<Model<"openai-completions">> = {}) => completionsModel({ id: "gpt-4o", baseUrl: `${server.url}/v1`, ...overrides });
const BOOK_OUTPUT: OutputOptions<typeof Book> = { schema: Book, name: "Book", description: "A book with a rating." };

async function replay(bytes: Buffer, output: OutputOptions = BOOK_OUTPUT, overrides: Partial<Model<"openai-completions">> = {}) {
	server.reset();
	server.enqueue(sseResponse(bytes));
	return collectOutput(streamOpenAICompletions(model(overrides), ask("Please recommend the most popular book by Patrick Rothfuss"), { apiKey: "sk-test", output }));
}

describe("request: response_format per server", () => {
	/** An optional field and a `$ref` show the strict-mode adaptation (plain JSON Schema, as from pydantic). */
	const Review = {
		type: "object",
		$defs: { Author: { type: "object", properties: { name: { type: "string" }, born: { type: "integer" } }, required: ["name"] } },
		properties: { title: { type: "string" }, note: { type: "string" }, author: { $ref: "#/$defs/Author" } },
		required: ["title", "author"],
	} as unknown as TSchema;

	it("OpenAI: json_schema, strict, every property required, optional ones nullable, objects closed", async () => {
		const { request } = await capture(server, FLAVOURS.openai, ask(), { apiKey: "sk-test", output: { schema: Review, name: "review", description: "One review." } });
		expect(request.json).toEqual({
			model: "o4-mini",
			messages: [{ role: "user", content: "Hello" }],
			stream: true,
			response_format: {
				type: "json_schema",
				json_schema: {
					name: "review",
					description: "One review.",
					schema: {
						type: "object",
						$defs: {
							Author: {
								type: "object",
								properties: { name: { type: "string" }, born: { type: ["integer", "null"] } },
								required: ["name", "born"],
								additionalProperties: false,
							},
						},
						properties: { title: { type: "string" }, note: { type: ["string", "null"] }, author: { $ref: "#/$defs/Author" } },
						required: ["title", "note", "author"],
						additionalProperties: false,
					},
					strict: true,
				},
			},
			stream_options: { include_usage: true },
			store: false,
		});
	});

	it("a server without strict mode (Groq): json_schema with the schema as written, no `strict`", async () => {
		const { request } = await capture(server, FLAVOURS.groq, ask(), { apiKey: "sk-test", output: { schema: Book } });
		expect((request.json as Record<string, unknown>).response_format).toEqual({
			type: "json_schema",
			json_schema: { name: "output", schema: JSON.parse(JSON.stringify(Book)) },
		});
	});

	it("DeepSeek (JSON mode only): json_object, and the schema in the system prompt", async () => {
		const { request } = await capture(server, FLAVOURS.deepseek, { systemPrompt: "Be terse.", messages: ask().messages }, { apiKey: "sk-test", output: { schema: Book, name: "book" } });
		const json = request.json as { response_format: unknown; messages: { role: string; content: string }[] };
		expect(json.response_format).toEqual({ type: "json_object" });
		expect(json.messages[0]).toEqual({
			role: "system",
			content: `Be terse.\n\nReply with a single JSON value "book" that matches this JSON Schema, and nothing else:\n${JSON.stringify(Book)}`,
		});
	});

	it("`compat.structuredOutput` overrides the detection", async () => {
		const { request } = await capture(server, completionsModel({ compat: { structuredOutput: "json_object" } }), ask(), { apiKey: "sk-test", output: { schema: Book } });
		expect((request.json as Record<string, unknown>).response_format).toEqual({ type: "json_object" });
	});

	it("a schema strict mode cannot take is refused before any request, naming the construct and where", async () => {
		server.reset();
		const Tags = Type.Object({ tags: Type.Record(Type.String(), Type.Number()) });
		const message = await complete(model(), ask(), { apiKey: "sk-test", output: { schema: Tags } });
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe(
			'The output schema cannot be sent to OpenAI strict mode (response_format): it has a map ("patternProperties"; use an array of entries instead) at #/properties/tags/patternProperties.',
		);
		expect(server.requests).toHaveLength(0);
	});

	it("an output name an API would reject is refused before any request", async () => {
		server.reset();
		const message = await complete(model(), ask(), { apiKey: "sk-test", output: { schema: Book, name: "my book" } });
		expect(message.errorMessage).toBe('options.output.name "my book" must be 1 to 64 letters, digits, "_" or "-"');
		expect(server.requests).toHaveLength(0);
	});
});

describe("replies", () => {
	it("a valid object: `output` is the parsed value, the raw text stays, partial objects only grow", async () => {
		const { message, partials } = await replay(loadFixture(API, "structured-output"));
		expect(message.stopReason).toBe("stop");
		expect(message.output).toEqual(BOOK);
		expect(message.content).toEqual([{ type: "text", text: JSON.stringify(BOOK) }]);
		expectGrowing(partials, BOOK, expect);
	});

	it("an object that does not match: `error` naming the JSON path and what was expected, the text kept", async () => {
		// The real capture with its rating changed from 7 to 7.5.
		const { message } = await replay(alteredFixture(API, "structured-output", '"content":"7"', '"content":"7.5"'));
		expect(message.stopReason).toBe("error");
		expect(message.rawStopReason).toBe("stop");
		expect(message.errorMessage).toBe('The reply does not match output schema "Book": /rating: expected integer');
		expect(message.output).toBeUndefined();
		expect(message.content).toEqual([{ type: "text", text: JSON.stringify({ ...BOOK, rating: 7.5 }) }]);
	});

	it("text that is not JSON: `error` with the parser's offset and problem", async () => {
		// The real `text-basic` capture: prose where JSON was asked for.
		const { message } = await replay(loadFixture(API, "text-basic"));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe('The reply is not JSON for output "Book": Unexpected "T" at offset 0 in JSON: expected a value');
		expect(message.content[0]).toMatchObject({ type: "text", text: "The capital of the UK is London." });
	});

	it("a refusal (`delta.refusal`): `error` with the refusal text, which stays visible", async () => {
		const { message } = await replay(loadFixture(API, "refusal"));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe(`The model refused to produce output "Book": I'm very sorry, but I can't assist with that request.`);
		expect(message.content).toEqual([{ type: "text", text: "I'm very sorry, but I can't assist with that request." }]);
	});

	it("a reply cut by the token limit keeps `length`, with no output and no error", async () => {
		const { message } = await replay(loadFixture(API, "length"));
		expect(message.stopReason).toBe("length");
		expect(message.output).toBeUndefined();
		expect(message.errorMessage).toBeUndefined();
	});

	it("the same object written twice (gpt-4o after a tool call): the last value, partials never shrink", async () => {
		const { message, partials } = await replay(loadFixture(API, "structured-output-after-tool"), { schema: BookSummary });
		expect(message.stopReason).toBe("stop");
		expect(message.output).toEqual(BOOK_SUMMARY);
		expect((message.content[0] as { text: string }).text).toBe(`${JSON.stringify(BOOK_SUMMARY)}\n${JSON.stringify(BOOK_SUMMARY)}`);
		expectGrowing(partials, BOOK_SUMMARY, expect);
	});

	it("optional properties the strict schema made nullable: a `null` is dropped before validation", async () => {
		const bytes = alteredFixture(API, "structured-output", '"content":"7"', '"content":"null"');
		const WithNote = Type.Object({ title: Type.String(), author: Book.properties.author, rating: Type.Optional(Type.Integer()) });
		const { message } = await replay(bytes, { schema: WithNote });
		expect(message.stopReason).toBe("stop");
		expect(message.output).toEqual({ title: BOOK.title, author: BOOK.author });
	});

	it("a tool call with output requested: `toolUse`, no output, no error", async () => {
		const { message } = await replay(loadFixture(API, "structured-output-tool-call"), { schema: BookSummary });
		expect(message.stopReason).toBe("toolUse");
		expect(message.output).toBeUndefined();
		expect(message.errorMessage).toBeUndefined();
	});

	it("without `output`, events carry no partialOutput and messages no output", async () => {
		server.reset();
		server.enqueue(sseResponse(loadFixture(API, "structured-output")));
		const { message, events } = await collectOutput(streamOpenAICompletions(model(), ask(), { apiKey: "sk-test" }));
		expect(message.output).toBeUndefined();
		expect(events.some((event) => "partialOutput" in event)).toBe(false);
	});
});
