/**
 * Tools whose `parameters` are zod, valibot and arktype schemas, run by the Agent over every
 * API: the real providers, real captures replayed in random chunks by the local replay server.
 * `execute` gets the library's output value (defaults, transforms, coercions); a call the library
 * refuses becomes an error tool result naming each path, and `execute` never runs.
 */
import { type Api, type Model, type ToolResultMessage } from "@pi/ai";
import { loadFixture, type ReplayServer, sseResponse, startReplayServer } from "@pi/ai/testing";
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent, type AgentTool, defineTool } from "../src/index.js";

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer({ chunking: { minChunkBytes: 1, maxChunkBytes: 64 } });
});
afterAll(() => server.close());

const BOOK_INFO = "Title: Mistborn: The Final Empire, Author: Brandon Sanderson, Pages: 544, Published: 2006-07-25";

function model(api: Api, id: string, baseUrl: string): Model<Api> {
	return { id, name: id, api, provider: "test", baseUrl, reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 200_000, maxTokens: 16_000 };
}

/** The recorded run of each API: a call of `get_book_info` with `{ isbn: "0-7653-1178-X" }`, then the answer. */
const RUNS = {
	"openai-completions": { model: () => model("openai-completions", "gpt-4o", `${server.url}/v1`), captures: ["structured-output-tool-call", "structured-output-after-tool"] },
	"openai-responses": { model: () => model("openai-responses", "gpt-4o", `${server.url}/v1`), captures: ["structured-output-tool-call", "structured-output-after-tool"] },
	"anthropic-messages": { model: () => model("anthropic-messages", "claude-sonnet-4-5-20250929", server.url), captures: ["structured-output-tool-use", "structured-output-after-tool"] },
} as const;
type RunApi = keyof typeof RUNS;

/**
 * The recorded first reply with two more arguments written into its last arguments delta, so
 * that coercion and a nested array meet real values: `copies: "2"` and
 * `shelves: [{ name: "fantasy", slots: ["4", 7] }]`. The rest of the stream is as recorded.
 */
function richerCall(api: "openai-completions" | "anthropic-messages"): Buffer {
	const extra = String.raw`, \"copies\": \"2\", \"shelves\": [{\"name\": \"fantasy\", \"slots\": [\"4\", 7]}]`;
	const text = loadFixture(api, RUNS[api].captures[0]).toString("utf8");
	const last = api === "anthropic-messages" ? String.raw`"partial_json":"X\"}` : String.raw`"arguments":"\"}"`;
	if (text.split(last).length !== 2) throw new Error(`${api}: the last arguments delta is not in the capture exactly once`);
	return Buffer.from(text.replace(last, last.replace(String.raw`\"}`, String.raw`\"${extra}}`)), "utf8");
}

/** Runs one prompt over `first` (the tool call) and the recorded answer; returns the tool's result. */
async function run(api: RunApi, tool: AgentTool<any>, first: Buffer = loadFixture(api, RUNS[api].captures[0])) {
	server.reset();
	server.enqueue(sseResponse(first));
	server.enqueue(sseResponse(loadFixture(api, RUNS[api].captures[1])));
	const agent = new Agent({ initialState: { model: RUNS[api].model(), tools: [tool] }, getApiKey: () => "test-key" });
	const events: string[] = [];
	agent.subscribe((event) => {
		events.push(event.type);
	});
	await agent.prompt("Please look up the book with ISBN 0-7653-1178-X and provide detailed info");
	expect(events.at(-1)).toBe("agent_end");
	const result = agent.state.messages.find((message): message is ToolResultMessage => "role" in message && message.role === "toolResult");
	if (!result) throw new Error("no tool result");
	// The result went back to the model in the second request.
	expect(server.requests).toHaveLength(2);
	return { result, text: result.content.map((part) => (part.type === "text" ? part.text : "")).join("") };
}

/** A `get_book_info` tool over `parameters` that records what `execute` got. */
function bookTool<T extends AgentTool["parameters"]>(parameters: T, calls: unknown[]) {
	return defineTool({
		name: "get_book_info",
		label: "Book info",
		description: "Look up book information by ISBN.",
		parameters,
		execute: async (_id, args) => {
			calls.push(args);
			return { content: [{ type: "text", text: BOOK_INFO }], details: {} };
		},
	});
}

const zodLookUp = () =>
	z.object({
		isbn: z.string().transform((isbn) => isbn.replaceAll("-", "")),
		format: z.enum(["hardcover", "paperback", "ebook"]).default("paperback"),
		copies: z.coerce.number().int().default(1),
		note: z.string().optional(),
		shelves: z.array(z.object({ name: z.string(), slots: z.array(z.coerce.number()) })).default([]),
	});

const APIS = Object.keys(RUNS) as RunApi[];

describe("zod: execute gets the output value", () => {
	for (const api of APIS) {
		it(`${api}: the recorded call: transform applied, defaults filled, the optional field absent`, async () => {
			const calls: unknown[] = [];
			const { result } = await run(api, bookTool(zodLookUp(), calls));
			expect(result.isError).toBe(false);
			expect(calls).toEqual([{ isbn: "076531178X", format: "paperback", copies: 1, shelves: [] }]);
			expect(Object.keys(calls[0] as object)).not.toContain("note");
		});

	}

	for (const api of ["openai-completions", "anthropic-messages"] as const) {
		it(`${api}: a call with more arguments: z.coerce turns strings into numbers, in the nested array too`, async () => {
			const calls: unknown[] = [];
			const { result } = await run(api, bookTool(zodLookUp(), calls), richerCall(api));
			expect(result.isError).toBe(false);
			expect(calls).toEqual([{ isbn: "076531178X", format: "paperback", copies: 2, shelves: [{ name: "fantasy", slots: [4, 7] }] }]);
		});

		it(`${api}: a call the schema refuses: an error result naming each path and zod's message; execute never runs`, async () => {
			const calls: unknown[] = [];
			const strict = z.object({ isbn: z.string().regex(/^\d{13}$/, "must be 13 digits"), shelves: z.array(z.object({ name: z.string().min(10) })) });
			const { result, text } = await run(api, bookTool(strict, calls), richerCall(api));
			expect(calls).toEqual([]);
			expect(result.isError).toBe(true);
			expect(text).toBe(['Invalid arguments for tool "get_book_info":', "  /isbn: must be 13 digits", "  /shelves/0/name: Too small: expected string to have >=10 characters"].join("\n"));
		});
	}
});

describe("valibot (through @valibot/to-json-schema) and arktype: execute gets the output value", () => {
	const valibotLookUp = () =>
		toStandardJsonSchema(
			v.object({
				isbn: v.pipe(
					v.string(),
					v.transform((isbn) => isbn.replaceAll("-", "")),
				),
				format: v.optional(v.picklist(["hardcover", "paperback"]), "paperback"),
			}),
		);
	const arktypeLookUp = () => type({ isbn: type("string").pipe((isbn) => isbn.replaceAll("-", "")), format: "'hardcover' | 'paperback' = 'paperback'", "note?": "string" });

	for (const api of ["openai-completions", "anthropic-messages"] as const) {
		it(`${api}: valibot transforms and fills the default`, async () => {
			const calls: unknown[] = [];
			const { result } = await run(api, bookTool(valibotLookUp(), calls));
			expect(result.isError).toBe(false);
			expect(calls).toEqual([{ isbn: "076531178X", format: "paperback" }]);
		});

		it(`${api}: valibot refuses: the error names the path`, async () => {
			const calls: unknown[] = [];
			const { text } = await run(api, bookTool(toStandardJsonSchema(v.object({ isbn: v.pipe(v.string(), v.length(10, "must be 10 characters")) })), calls));
			expect(calls).toEqual([]);
			expect(text).toBe('Invalid arguments for tool "get_book_info":\n  /isbn: must be 10 characters');
		});

		it(`${api}: arktype pipes and fills the default`, async () => {
			const calls: unknown[] = [];
			const { result } = await run(api, bookTool(arktypeLookUp(), calls));
			expect(result.isError).toBe(false);
			expect(calls).toEqual([{ isbn: "076531178X", format: "paperback" }]);
		});

		it(`${api}: arktype refuses: the error names the path`, async () => {
			const calls: unknown[] = [];
			const { text } = await run(api, bookTool(type({ isbn: "string.digits", copies: "number" }), calls));
			expect(calls).toEqual([]);
			expect(text).toBe('Invalid arguments for tool "get_book_info":\n  /copies: copies must be a number (was missing)\n  /isbn: isbn must be only digits 0-9 (was "0-7653-1178-X")');
		});
	}
});

describe("async validators", () => {
	it("a zod schema with an async refinement is awaited before execute", async () => {
		const calls: unknown[] = [];
		const order: string[] = [];
		const parameters = z.object({
			isbn: z.string().refine(async (isbn) => {
				await new Promise((resolve) => setImmediate(resolve));
				order.push("checked");
				return isbn.endsWith("X");
			}, "unknown ISBN"),
		});
		const tool = bookTool(parameters, calls);
		const execute = tool.execute.bind(tool);
		tool.execute = (...args) => {
			order.push("execute");
			return execute(...args);
		};
		const { result } = await run("openai-completions", tool);
		expect(result.isError).toBe(false);
		expect(calls).toEqual([{ isbn: "0-7653-1178-X" }]);
		// zod's ~standard.validate tries a synchronous parse first, so the refinement may run twice;
		// execute runs only after the awaited check finished.
		expect(order.at(-1)).toBe("execute");
		expect(order.slice(0, -1).length).toBeGreaterThan(0);
		expect(new Set(order.slice(0, -1))).toEqual(new Set(["checked"]));
	});

	it("an async refinement that fails gives the error result", async () => {
		const calls: unknown[] = [];
		const parameters = z.object({ isbn: z.string().refine(async () => false, "unknown ISBN") });
		const { text } = await run("anthropic-messages", bookTool(parameters, calls));
		expect(calls).toEqual([]);
		expect(text).toBe('Invalid arguments for tool "get_book_info":\n  /isbn: unknown ISBN');
	});
});

describe("a schema without a JSON Schema converter", () => {
	it("defineTool refuses a plain valibot schema, naming valibot and toStandardJsonSchema", () => {
		expect(() => bookTool(v.object({ isbn: v.string() }) as unknown as AgentTool["parameters"], [])).toThrow(
			'The parameters schema of tool "get_book_info" is a valibot schema without a JSON Schema converter (~standard.jsonSchema, Standard JSON Schema v1), so there is no JSON Schema to send to the model. Wrap the schema with toStandardJsonSchema from @valibot/to-json-schema: toStandardJsonSchema(v.object({ … })).',
		);
	});

	it("written without defineTool, the run's model call ends with an error naming the tool, and agent_end", async () => {
		server.reset();
		const tool: AgentTool = { ...bookTool(zodLookUp(), []), parameters: v.object({ isbn: v.string() }) as unknown as AgentTool["parameters"] };
		const agent = new Agent({ initialState: { model: RUNS["openai-completions"].model(), tools: [tool] }, getApiKey: () => "test-key" });
		const events: string[] = [];
		agent.subscribe((event) => {
			events.push(event.type);
		});
		await agent.prompt("Look it up");
		const last = agent.state.messages.at(-1) as { stopReason: string; errorMessage?: string };
		expect(last.stopReason).toBe("error");
		expect(last.errorMessage).toContain('The parameters schema of tool "get_book_info" is a valibot schema without a JSON Schema converter');
		expect(server.requests).toHaveLength(0);
		expect(events.at(-1)).toBe("agent_end");
	});
});
