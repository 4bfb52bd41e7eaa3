import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamGoogle } from "../../../src/providers/google-generative-ai.js";
import { loadFixture, type ReplayServer, sseResponse, startReplayServer } from "../../../src/testing/index.js";
import type { OutputOptions } from "../../../src/types.js";
import { alteredFixture, BOOK, Book, collectOutput, expectGrowing } from "../../structured-output/helpers.js";
import { API, geminiModel, geminiSse, HELLO, onServer, TEST_KEY } from "./helpers.js";

/** Structured output over Gemini (`responseMimeType` + `responseJsonSchema`), against real captures. */

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer({ chunking: { minChunkBytes: 1, maxChunkBytes: 48 } });
});
afterAll(() => server.close());

const BOOK_OUTPUT: OutputOptions = { schema: Book, name: "Book" };

async function replay(bytes: Buffer | string, output: OutputOptions = BOOK_OUTPUT) {
	server.reset();
	server.enqueue(sseResponse(bytes));
	return collectOutput(streamGoogle(onServer(server, geminiModel()), HELLO, { apiKey: TEST_KEY, output }));
}

async function body(output: OutputOptions, compat?: { toolSchemaField: "parameters" }): Promise<Record<string, unknown>> {
	server.reset();
	server.enqueue(sseResponse(loadFixture(API, "structured-output")));
	await streamGoogle(onServer(server, geminiModel("gemini-2.5-flash", compat ? { compat } : {})), HELLO, { apiKey: TEST_KEY, output, temperature: 0 }).result();
	return server.requests[0]?.json as Record<string, unknown>;
}

/**
 * The real capture's chunk, its text cut in pieces of `size` characters, one chunk each, the last
 * one carrying `finishReason` and the usage: Gemini streams long JSON replies over several
 * chunks of this very shape, but the one public capture has the object in a single chunk.
 */
function chunkedCapture(size: number): string {
	const line = loadFixture(API, "structured-output").toString("utf8").trim().replace(/^data: /, "");
	const whole = JSON.parse(line) as { candidates: [{ content: { parts: [{ text: string }]; role: string }; finishReason?: string; index: number }]; usageMetadata: unknown; modelVersion: string; responseId: string };
	const text = whole.candidates[0].content.parts[0].text;
	const chunks: unknown[] = [];
	for (let start = 0; start < text.length; start += size) {
		const last = start + size >= text.length;
		chunks.push({
			candidates: [{ content: { parts: [{ text: text.slice(start, start + size) }], role: "model" }, ...(last ? { finishReason: "STOP" } : {}), index: 0 }],
			...(last ? { usageMetadata: whole.usageMetadata } : {}),
			modelVersion: whole.modelVersion,
			responseId: whole.responseId,
		});
	}
	return geminiSse(...chunks);
}

describe("request", () => {
	it("generationConfig: responseMimeType application/json and responseJsonSchema (the schema as written)", async () => {
		expect(await body({ schema: Book, name: "Book" })).toEqual({
			contents: [{ role: "user", parts: [{ text: "Hello" }] }],
			generationConfig: {
				temperature: 0,
				responseMimeType: "application/json",
				responseJsonSchema: JSON.parse(JSON.stringify(Book)),
			},
		});
	});

	it("beside tools on Gemini 2.x (which refuses a JSON response type with function calling): the schema in the system instruction", async () => {
		server.reset();
		server.enqueue(sseResponse(loadFixture(API, "structured-output")));
		const tools = [{ name: "now", description: "The time.", parameters: { type: "object", properties: {} } as never }];
		const message = await streamGoogle(onServer(server, geminiModel()), { ...HELLO, systemPrompt: "Be brief.", tools }, { apiKey: TEST_KEY, output: { schema: Book, name: "Book" } }).result();
		const json = server.requests[0]?.json as Record<string, unknown>;
		expect(json.generationConfig).toBeUndefined();
		expect(json.systemInstruction).toEqual({
			parts: [{ text: "Be brief." }, { text: `Reply with a single JSON value "Book" that matches this JSON Schema, and nothing else:\n${JSON.stringify(Book)}` }],
		});
		// The reply is parsed and validated all the same.
		expect(message.output).toEqual(BOOK);
	});

	it("beside tools on Gemini 3: responseJsonSchema as without tools", async () => {
		server.reset();
		server.enqueue(sseResponse(loadFixture(API, "structured-output")));
		const tools = [{ name: "now", description: "The time.", parameters: { type: "object", properties: {} } as never }];
		await streamGoogle(onServer(server, geminiModel("gemini-3-flash-preview")), { ...HELLO, tools }, { apiKey: TEST_KEY, output: { schema: Book } }).result();
		const config = (server.requests[0]?.json as { generationConfig: Record<string, unknown> }).generationConfig;
		expect(config.responseMimeType).toBe("application/json");
		expect(config.responseJsonSchema).toEqual(JSON.parse(JSON.stringify(Book)));
	});

	it("with `compat.toolSchemaField: parameters`: responseSchema in Google's OpenAPI subset instead", async () => {
		const config = (await body({ schema: Book }, { toolSchemaField: "parameters" })).generationConfig as Record<string, unknown>;
		expect(config.responseJsonSchema).toBeUndefined();
		expect(config.responseSchema).toEqual({
			type: "OBJECT",
			properties: {
				title: { type: "STRING" },
				author: { type: "OBJECT", properties: { first_name: { type: "STRING" }, last_name: { type: "STRING" } }, required: ["first_name", "last_name"] },
				rating: { type: "INTEGER" },
			},
			required: ["title", "author", "rating"],
		});
	});
});

describe("replies", () => {
	it("the real capture: a valid object", async () => {
		const { message } = await replay(loadFixture(API, "structured-output"));
		expect(message.stopReason).toBe("stop");
		expect(message.output).toEqual(BOOK);
	});

	it("the object over many chunks (built from the capture's shape): partial objects only grow", async () => {
		const { message, partials } = await replay(chunkedCapture(7));
		expect(message.output).toEqual(BOOK);
		expect(partials.length).toBeGreaterThan(10);
		expectGrowing(partials, BOOK, expect);
	});

	it("an object that does not match: `error` naming the JSON path, the text kept", async () => {
		// The real capture with its rating changed from 7 to 7.5.
		const { message } = await replay(alteredFixture(API, "structured-output", 'rating\\":7}', 'rating\\":7.5}'));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe('The reply does not match output schema "Book": /rating: expected integer');
		expect(message.content).toMatchObject([{ type: "text", text: JSON.stringify({ ...BOOK, rating: 7.5 }) }]);
	});

	it("a safety stop (Gemini's refusal): `error` naming the reason", async () => {
		const { message } = await replay(loadFixture(API, "finish-reason-safety"));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/^Gemini stopped with finishReason SAFETY/);
		expect(message.output).toBeUndefined();
	});

	it("a reply cut by MAX_TOKENS keeps `length`, with no output", async () => {
		const { message } = await replay(loadFixture(API, "max-tokens"));
		expect(message.stopReason).toBe("length");
		expect(message.output).toBeUndefined();
		expect(message.errorMessage).toBeUndefined();
	});
});
