/**
 * `AgentOptions.output` over every API: in one run the model calls a tool, the tool runs as
 * usual, and the reply that ends the run matches the schema and carries `output`. Each run
 * replays two real captures through the local replay server with the real providers.
 */
import type { Api, Model, OutputOptions } from "@pi/ai";
import { loadFixture, type ReplayServer, sseResponse, startReplayServer } from "@pi/ai/testing";
import { Type } from "typebox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Agent, type AgentEvent, type AgentTool } from "../src/index.js";

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer({ chunking: { minChunkBytes: 1, maxChunkBytes: 64 } });
});
afterAll(() => server.close());

const BookSummary = Type.Object({ title: Type.String(), author: Type.String(), pages: Type.Integer(), publication_year: Type.Integer() });
const Book = Type.Object({ title: Type.String(), author: Type.Object({ first_name: Type.String(), last_name: Type.String() }), rating: Type.Integer() });
const BOOK_INFO = "Title: Mistborn: The Final Empire, Author: Brandon Sanderson, Pages: 544, Published: 2006-07-25";

function tool(name: string, parameters: AgentTool["parameters"], calls: unknown[]): AgentTool {
	return {
		name,
		label: name,
		description: `The ${name} tool.`,
		parameters,
		execute: async (_id, params) => {
			calls.push(params);
			return { content: [{ type: "text", text: BOOK_INFO }], details: undefined };
		},
	};
}

function model(api: Api, id: string, baseUrl: string): Model<Api> {
	return { id, name: id, api, provider: "test", baseUrl, reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 200_000, maxTokens: 16_000 };
}

interface Case {
	api: Api;
	model: () => Model<Api>;
	/** The tool the first capture calls, and its arguments there. */
	tool: { name: string; parameters: AgentTool["parameters"]; arguments: unknown };
	captures: [string, string];
	output: OutputOptions;
	expected: unknown;
	/** Where the schema is in a request body. */
	schemaIn: (body: Record<string, unknown>) => unknown;
}

const SUMMARY = { title: "Mistborn: The Final Empire", author: "Brandon Sanderson", pages: 544, publication_year: 2006 };
const isbn = { name: "get_book_info", parameters: Type.Object({ isbn: Type.String() }), arguments: { isbn: "0-7653-1178-X" } };

const CASES: Case[] = [
	{
		api: "openai-completions",
		model: () => model("openai-completions", "gpt-4o", `${server.url}/v1`),
		tool: isbn,
		captures: ["structured-output-tool-call", "structured-output-after-tool"],
		output: { schema: BookSummary, name: "BookSummary" },
		expected: SUMMARY,
		schemaIn: (body) => (body.response_format as { json_schema: { name: string } }).json_schema.name,
	},
	{
		api: "openai-responses",
		model: () => model("openai-responses", "gpt-4o", `${server.url}/v1`),
		tool: isbn,
		captures: ["structured-output-tool-call", "structured-output-after-tool"],
		output: { schema: BookSummary, name: "BookSummary" },
		expected: SUMMARY,
		schemaIn: (body) => (body.text as { format: { name: string } }).format.name,
	},
	{
		api: "anthropic-messages",
		model: () => model("anthropic-messages", "claude-sonnet-4-5-20250929", server.url),
		tool: isbn,
		captures: ["structured-output-tool-use", "structured-output-after-tool"],
		output: { schema: BookSummary, name: "BookSummary" },
		expected: SUMMARY,
		schemaIn: (body) => ((body.output_config as { format: { schema: { required: string[] } } }).format.schema.required.length === 4 ? "BookSummary" : undefined),
	},
	{
		// claude-sonnet-4 has no structured outputs: the schema goes as a forced tool beside the real one.
		api: "anthropic-messages",
		model: () => model("anthropic-messages", "claude-sonnet-4-20250514", server.url),
		tool: isbn,
		captures: ["tool-use-single", "structured-output-forced-tool-after-tool"],
		output: { schema: BookSummary, name: "__mirascope_formatted_output_tool__" },
		expected: SUMMARY,
		schemaIn: (body) => {
			expect(body.tool_choice).toEqual({ type: "any" });
			return (body.tools as { name: string }[]).map((tool) => tool.name).find((name) => name.startsWith("__"));
		},
	},
	{
		// Two captures of different recordings joined in one run: a call of `now`, then the JSON answer.
		api: "google-generative-ai",
		model: () => model("google-generative-ai", "gemini-2.5-flash", `${server.url}/v1beta`),
		tool: { name: "now", parameters: Type.Object({}), arguments: {} },
		captures: ["thought-summary-function-call-signature", "structured-output"],
		output: { schema: Book, name: "Book" },
		expected: { title: "THE NAME OF THE WIND", author: { first_name: "Patrick", last_name: "Rothfuss" }, rating: 7 },
		// Gemini 2.x refuses a JSON response type beside function declarations: the schema goes in words.
		schemaIn: (body) => (JSON.stringify(body.systemInstruction).includes('Reply with a single JSON value \\"Book\\"') ? "Book" : undefined),
	},
];

describe("AgentOptions.output: tools run, and the reply that ends the run matches the schema", () => {
	for (const testCase of CASES) {
		it(`${testCase.api}: ${testCase.captures.join(" then ")}`, async () => {
			server.reset();
			for (const name of testCase.captures) server.enqueue(sseResponse(loadFixture(testCase.api, name)));
			const calls: unknown[] = [];
			const agent = new Agent({
				initialState: { model: testCase.model(), tools: [tool(testCase.tool.name, testCase.tool.parameters, calls)] },
				getApiKey: () => "test-key",
				output: testCase.output,
			});
			const events: AgentEvent["type"][] = [];
			agent.subscribe((event) => {
				events.push(event.type);
			});
			await agent.prompt("Please look up the book with ISBN 0-7653-1178-X and provide detailed info");

			expect(calls).toEqual([testCase.tool.arguments]);
			const roles = agent.state.messages.map((message) => ("role" in message ? message.role : "?"));
			expect(roles).toEqual(["user", "assistant", "toolResult", "assistant"]);
			const last = agent.state.messages[3] as { stopReason: string; output?: unknown; errorMessage?: string };
			expect(last.errorMessage).toBeUndefined();
			expect(last.stopReason).toBe("stop");
			expect(last.output).toEqual(testCase.expected);
			expect(events[events.length - 1]).toBe("agent_end");
			// Both model calls asked for the schema; the second carried the tool's result.
			expect(server.requests).toHaveLength(2);
			for (const request of server.requests) expect(testCase.schemaIn(request.json as Record<string, unknown>)).toBe(testCase.output.name);
			expect(server.requests[1]?.body).toContain("Mistborn");
		});
	}

	it("a final reply that does not match ends the run with an error naming the path, and agent_end", async () => {
		server.reset();
		const bytes = loadFixture("openai-completions", "structured-output").toString("utf8").replace('"content":"7"', '"content":"\\"seven\\""');
		server.enqueue(sseResponse(bytes));
		const agent = new Agent({
			initialState: { model: model("openai-completions", "gpt-4o", `${server.url}/v1`) },
			getApiKey: () => "test-key",
			output: { schema: Book, name: "Book" },
		});
		const events: string[] = [];
		agent.subscribe((event) => {
			events.push(event.type);
		});
		await agent.prompt("Please recommend the most popular book by Patrick Rothfuss");
		const last = agent.state.messages[agent.state.messages.length - 1] as { stopReason: string; errorMessage?: string; output?: unknown };
		expect(last.stopReason).toBe("error");
		expect(last.errorMessage).toBe('The reply does not match output schema "Book": /rating: expected integer');
		expect(last.output).toBeUndefined();
		expect(events[events.length - 1]).toBe("agent_end");
	});
});
