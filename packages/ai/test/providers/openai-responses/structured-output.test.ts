import { Type } from "typebox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamOpenAIResponses } from "../../../src/providers/openai-responses.js";
import { loadFixture, type ReplayServer, sseResponse, startReplayServer } from "../../../src/testing/index.js";
import type { OutputOptions } from "../../../src/types.js";
import { alteredFixture, BOOK, Book, BOOK_SUMMARY, BookSummary, collectOutput, expectGrowing } from "../../structured-output/helpers.js";
import { API, responsesModel, TEST_KEY, userContext } from "./helpers.js";

/** Structured output over OpenAI Responses (`text.format`), against real captures in random chunks. */

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer({ chunking: { minChunkBytes: 1, maxChunkBytes: 64 } });
});
afterAll(() => server.close());

const BOOK_OUTPUT: OutputOptions = { schema: Book, name: "Book" };

async function replay(bytes: Buffer, output: OutputOptions = BOOK_OUTPUT) {
	server.reset();
	server.enqueue(sseResponse(bytes));
	return collectOutput(streamOpenAIResponses(responsesModel(server, { id: "gpt-4o", reasoning: false }), userContext(), { apiKey: TEST_KEY, output }));
}

describe("request: text.format", () => {
	it("json_schema, strict, with the schema in strict form", async () => {
		server.reset();
		server.enqueue(sseResponse(loadFixture(API, "structured-output")));
		const Review = Type.Object({ title: Type.String(), stars: Type.Optional(Type.Integer()) });
		await streamOpenAIResponses(responsesModel(server, { id: "gpt-4o", reasoning: false }), userContext(), {
			apiKey: TEST_KEY,
			output: { schema: Review, name: "review", description: "One review." },
		}).result();
		expect(server.requests[0]?.json).toEqual({
			model: "gpt-4o",
			input: [{ role: "user", content: [{ type: "input_text", text: "Hello" }] }],
			stream: true,
			store: false,
			text: {
				format: {
					type: "json_schema",
					name: "review",
					description: "One review.",
					schema: {
						type: "object",
						properties: { title: { type: "string" }, stars: { type: ["integer", "null"] } },
						required: ["title", "stars"],
						additionalProperties: false,
					},
					strict: true,
				},
			},
		});
	});

	it("a schema strict mode cannot take is refused before any request", async () => {
		server.reset();
		const Either = Type.Object({ value: Type.Intersect([Type.Object({ a: Type.String() }), Type.Object({ b: Type.String() })]) });
		const message = await streamOpenAIResponses(responsesModel(server), userContext(), { apiKey: TEST_KEY, output: { schema: Either } }).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe('The output schema cannot be sent to OpenAI strict mode (text.format): it has "allOf" at #/properties/value/allOf.');
		expect(server.requests).toHaveLength(0);
	});
});

describe("replies", () => {
	it("a valid object: `output`, the raw text kept, partial objects only grow", async () => {
		const { message, partials } = await replay(loadFixture(API, "structured-output"));
		expect(message.stopReason).toBe("stop");
		expect(message.output).toEqual(BOOK);
		expect(message.content).toMatchObject([{ type: "text", text: JSON.stringify(BOOK) }]);
		expectGrowing(partials, BOOK, expect);
	});

	it("an object that does not match: `error` naming the JSON path, the text kept", async () => {
		// The real capture with its rating changed from 7 to "7" (its delta and the final texts).
		let bytes = alteredFixture(API, "structured-output", '"delta":"7"', '"delta":"\\"7\\""');
		bytes = Buffer.from(bytes.toString("utf8").split('\\"rating\\":7}').join('\\"rating\\":\\"7\\"}'));
		const { message } = await replay(bytes);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe('The reply does not match output schema "Book": /rating: expected integer');
		expect(message.content).toMatchObject([{ type: "text", text: JSON.stringify({ ...BOOK, rating: "7" }) }]);
	});

	it("a refusal item: `error` with the refusal text, which stays visible", async () => {
		const { message } = await replay(loadFixture(API, "refusal"));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe(`The model refused to produce output "Book": I'm sorry, I can't assist with that.`);
		expect(message.content).toMatchObject([{ type: "text", text: "I'm sorry, I can't assist with that." }]);
	});

	it("a reply cut by max_output_tokens keeps `length`, with no output", async () => {
		const { message } = await replay(loadFixture(API, "incomplete-max-output-tokens"));
		expect(message.stopReason).toBe("length");
		expect(message.output).toBeUndefined();
	});

	it("the object in two message items (gpt-4o after a tool call): the last one, partials never shrink", async () => {
		const { message, partials } = await replay(loadFixture(API, "structured-output-after-tool"), { schema: BookSummary });
		expect(message.stopReason).toBe("stop");
		expect(message.output).toEqual(BOOK_SUMMARY);
		expect(message.content.filter((block) => block.type === "text")).toHaveLength(2);
		expectGrowing(partials, BOOK_SUMMARY, expect);
	});

	it("a function call with output requested: `toolUse`, no output, no error", async () => {
		const { message } = await replay(loadFixture(API, "structured-output-tool-call"), { schema: BookSummary });
		expect(message.stopReason).toBe("toolUse");
		expect(message.output).toBeUndefined();
		expect(message.errorMessage).toBeUndefined();
	});
});
