import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamAnthropic } from "../../../src/providers/anthropic-messages.js";
import { supportsStructuredOutputs } from "../../../src/providers/anthropic-messages/model-features.js";
import { loadFixture, type ReplayServer, sseResponse, startReplayServer } from "../../../src/testing/index.js";
import type { Model, OutputOptions, TSchema } from "../../../src/types.js";
import { alteredFixture, BOOK, Book, collectOutput, expectGrowing, getBookInfo } from "../../structured-output/helpers.js";
import { anthropicModel, ask } from "./helpers.js";

/**
 * Structured output over Anthropic Messages: native structured outputs (`output_config.format`)
 * on models that have them, else one forced tool; real captures replayed in random chunks.
 */

const API = "anthropic-messages";
const NATIVE = "claude-sonnet-4-5-20250929";
const LEGACY = "claude-sonnet-4-20250514";
let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer({ chunking: { minChunkBytes: 1, maxChunkBytes: 48 } });
});
afterAll(() => server.close());

const model = (id: string, overrides: Partial<Model<"anthropic-messages">> = {}) => anthropicModel({ id, baseUrl: server.url, maxTokens: 16_000, ...overrides });

async function replay(bytes: Buffer, output: OutputOptions, id = NATIVE) {
	server.reset();
	server.enqueue(sseResponse(bytes));
	return collectOutput(streamAnthropic(model(id), ask("Please recommend the most popular book by Patrick Rothfuss"), { apiKey: "sk-ant-api03-test", output }));
}

async function body(id: string, output: OutputOptions, extra: { tools?: boolean; thinking?: boolean } = {}): Promise<Record<string, unknown>> {
	server.reset();
	server.enqueue(sseResponse(loadFixture(API, "structured-output")));
	const context = ask("Hi", extra.tools ? { tools: [getBookInfo] } : {});
	await streamAnthropic(model(id), context, { apiKey: "sk-ant-api03-test", output, thinkingEnabled: extra.thinking }).result();
	const request = server.requests[0];
	if (!request) throw new Error("no request");
	return request.json as Record<string, unknown>;
}

describe("which models get native structured outputs", () => {
	it("Opus 4.1+, Sonnet 4.5+, Haiku 4.5+ and later lines; older models a forced tool", () => {
		const native = ["claude-sonnet-4-5-20250929", "claude-haiku-4-5", "claude-opus-4-1-20250805", "claude-opus-4-6", "claude-sonnet-4-6", "claude-fable-5-1"];
		const legacy = ["claude-sonnet-4-20250514", "claude-opus-4-20250514", "claude-3-7-sonnet-20250219", "claude-3-5-haiku-20241022"];
		expect(native.filter((id) => !supportsStructuredOutputs(id))).toEqual([]);
		expect(legacy.filter((id) => supportsStructuredOutputs(id))).toEqual([]);
	});
});

describe("request", () => {
	it("native: output_config.format with the schema closed (additionalProperties: false)", async () => {
		expect(await body(NATIVE, { schema: Book, name: "Book" })).toEqual({
			model: NATIVE,
			max_tokens: 16_000,
			stream: true,
			messages: [{ role: "user", content: [{ type: "text", text: "Hi", cache_control: { type: "ephemeral" } }] }],
			output_config: {
				format: {
					type: "json_schema",
					schema: {
						type: "object",
						properties: {
							title: { type: "string" },
							author: {
								type: "object",
								properties: { first_name: { type: "string" }, last_name: { type: "string" } },
								required: ["first_name", "last_name"],
								additionalProperties: false,
							},
							rating: { type: "integer" },
						},
						required: ["title", "author", "rating"],
						additionalProperties: false,
					},
				},
			},
		});
	});

	it("native, with effort: both in output_config", async () => {
		server.reset();
		server.enqueue(sseResponse(loadFixture(API, "structured-output")));
		await streamAnthropic(model("claude-opus-4-6"), ask(), { apiKey: "sk-ant-api03-test", output: { schema: Book }, effort: "low" }).result();
		const config = (server.requests[0]?.json as { output_config: Record<string, unknown> }).output_config;
		expect(Object.keys(config)).toEqual(["effort", "format"]);
		expect(config.effort).toBe("low");
	});

	it("a model without structured outputs: one forced tool named after the output", async () => {
		const json = await body(LEGACY, { schema: Book, name: "book", description: "The recommended book." });
		expect(json.tools).toEqual([{ name: "book", description: "The recommended book.", input_schema: JSON.parse(JSON.stringify(Book)) }]);
		expect(json.tool_choice).toEqual({ type: "tool", name: "book" });
		expect(json.output_config).toBeUndefined();
	});

	it("forced tool beside the caller's tools: tool_choice any, so the model may call those first", async () => {
		const json = await body(LEGACY, { schema: Book }, { tools: true });
		expect((json.tools as { name: string }[]).map((tool) => tool.name)).toEqual(["get_book_info", "output"]);
		expect(json.tool_choice).toEqual({ type: "any" });
	});

	it("forced tool with the caller's own toolChoice: the caller's wins", async () => {
		server.reset();
		server.enqueue(sseResponse(loadFixture(API, "structured-output")));
		await streamAnthropic(model(LEGACY), ask("Hi", { tools: [getBookInfo] }), { apiKey: "sk-ant-api03-test", output: { schema: Book }, toolChoice: "auto" }).result();
		expect((server.requests[0]?.json as Record<string, unknown>).tool_choice).toEqual({ type: "auto" });
	});

	it("forced tool with thinking on: no forced tool_choice (the API rejects one while thinking)", async () => {
		const json = await body(LEGACY, { schema: Book }, { thinking: true });
		expect(json.tool_choice).toBeUndefined();
		expect((json.tools as { name: string }[]).map((tool) => tool.name)).toEqual(["output"]);
	});

	it("a recursive schema is refused before any request, naming where", async () => {
		server.reset();
		const Tree = { type: "object", properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#" } } }, required: ["name"] } as unknown as TSchema;
		const message = await streamAnthropic(model(NATIVE), ask(), { apiKey: "sk-ant-api03-test", output: { schema: Tree } }).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe(
			"The output schema cannot be sent to Anthropic structured outputs (output_config.format): it has a recursive schema (a $ref that reaches itself) at #/properties/children/items.",
		);
		expect(server.requests).toHaveLength(0);
	});

	it("a forced tool whose name is also one of the caller's tools is refused", async () => {
		server.reset();
		const message = await streamAnthropic(model(LEGACY), ask("Hi", { tools: [getBookInfo] }), { apiKey: "sk-ant-api03-test", output: { schema: Book, name: "get_book_info" } }).result();
		expect(message.errorMessage).toBe('The output name "get_book_info" is also the name of a tool: pick another options.output.name.');
		expect(server.requests).toHaveLength(0);
	});
});

describe("replies", () => {
	it("native: a valid object, partial objects only grow", async () => {
		const { message, partials } = await replay(loadFixture(API, "structured-output"), { schema: Book });
		expect(message.stopReason).toBe("stop");
		expect(message.output).toEqual(BOOK);
		expectGrowing(partials, BOOK, expect);
	});

	it("forced tool: the tool's input is the reply's text and output, and the reply stops", async () => {
		const { message, partials, events } = await replay(loadFixture(API, "structured-output-forced-tool"), { schema: Book, name: "__mirascope_formatted_output_tool__" }, LEGACY);
		expect(message.stopReason).toBe("stop");
		expect(message.rawStopReason).toBe("tool_use");
		expect(message.output).toEqual(BOOK);
		expect(message.content).toEqual([
			{ type: "text", text: '{"title": "THE NAME OF THE WIND", "author": {"first_name":"Patrick","last_name":"Rothfuss"}, "rating": 7}' },
		]);
		expect(events.some((event) => event.type.startsWith("toolcall"))).toBe(false);
		expectGrowing(partials, BOOK, expect);
	});

	it("an object that does not match: `error` naming the JSON path, the text kept", async () => {
		// The real capture with its rating changed from 7 to 7.5.
		const { message } = await replay(alteredFixture(API, "structured-output", 'rating\\":7}', 'rating\\":7.5}'), { schema: Book, name: "Book" });
		expect(message.stopReason).toBe("error");
		expect(message.rawStopReason).toBe("end_turn");
		expect(message.errorMessage).toBe('The reply does not match output schema "Book": /rating: expected integer');
		expect(message.content).toEqual([{ type: "text", text: JSON.stringify({ ...BOOK, rating: 7.5 }) }]);
	});

	it("a refusal (stop_reason refusal): `error` with the refusal's explanation", async () => {
		const { message } = await replay(loadFixture(API, "refusal-stop-details"), { schema: Book });
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/^Refusal: This request was blocked as it seems to violate/);
	});

	it("a reply cut by max_tokens keeps `length`, with no output", async () => {
		const { message } = await replay(loadFixture(API, "max-tokens"), { schema: Book });
		expect(message.stopReason).toBe("length");
		expect(message.output).toBeUndefined();
		expect(message.errorMessage).toBeUndefined();
	});
});

