import { fauxToolCall } from "@pi/ai";
import { Type } from "typebox";
import { describe, expect, test } from "vitest";
import { agentLoop, defaultConvertToLlm, type AgentEvent, type AgentTool } from "../src/index.js";
import { collect, textOf, user } from "./helpers/collect.js";
import { assertRunInvariants } from "./helpers/event-invariants.js";
import { reply, scriptedStream, testModel } from "./helpers/scripted-stream.js";
import { addParams, addTool } from "./helpers/tools.js";

const config = { model: testModel, convertToLlm: defaultConvertToLlm };

async function runOneCall(tool: AgentTool<any>, args: Record<string, unknown>, name = tool.name) {
	const streamFn = scriptedStream([reply([fauxToolCall(name, args, { id: "c1" })]), reply("done")]);
	const { events, result } = await collect(
		agentLoop([user("go")], { systemPrompt: "", messages: [], tools: [tool] }, config, undefined, streamFn),
	);
	assertRunInvariants(events);
	const toolResult = result.find((message) => message.role === "toolResult");
	const end = events.find((event) => event.type === "tool_execution_end") as Extract<AgentEvent, { type: "tool_execution_end" }>;
	return { events, result, toolResult, end, streamFn };
}

describe("tool arguments are validated before execute", () => {
	test("invalid arguments: an error result lists each `path: problem`; execute never runs; the model is asked again", async () => {
		const add = addTool();
		const { toolResult, end, streamFn } = await runOneCall(add, { a: "two", c: 1 });
		expect(add.calls).toBe(0);
		expect(toolResult).toMatchObject({ role: "toolResult", toolCallId: "c1", isError: true });
		const text = textOf(toolResult);
		expect(text).toContain('Invalid arguments for tool "add"');
		expect(text).toContain("/a: expected number");
		expect(text).toContain("/: missing required property \"b\"");
		expect(end.isError).toBe(true);
		// The error went back to the model, which answered.
		expect(streamFn.contexts[1]?.messages.at(-1)).toMatchObject({ role: "toolResult", isError: true });
	});

	test("valid arguments reach execute unchanged", async () => {
		let seen: unknown;
		const params = Type.Object({ city: Type.String(), days: Type.Optional(Type.Integer()) });
		const tool: AgentTool<typeof params> = {
			name: "weather",
			label: "Weather",
			description: "Forecast",
			parameters: params,
			execute: async (_id, args) => {
				seen = args;
				return { content: [{ type: "text", text: "sunny" }], details: {} };
			},
		};
		const { toolResult } = await runOneCall(tool, { city: "Oslo", days: 3 });
		expect(seen).toEqual({ city: "Oslo", days: 3 });
		expect(toolResult).toMatchObject({ isError: false, content: [{ type: "text", text: "sunny" }] });
	});

	test("prepareArguments adapts raw arguments before validation", async () => {
		const add = addTool();
		const shim: AgentTool<typeof addParams> = { ...add, prepareArguments: (raw) => {
			const old = raw as { x: number; y: number };
			return { a: old.x, b: old.y };
		} };
		const { toolResult } = await runOneCall(shim, { x: 4, y: 5 });
		expect(toolResult).toMatchObject({ isError: false, details: { sum: 9 } });
	});

	test("a tool the model invented gets an error result naming the available tools", async () => {
		const add = addTool();
		const { toolResult } = await runOneCall(add, { a: 1 }, "subtract");
		expect(toolResult).toMatchObject({ isError: true, toolName: "subtract" });
		expect(textOf(toolResult)).toBe('Tool "subtract" not found. Available tools: "add".');
	});

	test("a tool that throws asynchronously: error result with its message", async () => {
		const tool: AgentTool<any> = { ...addTool(), execute: async () => { throw new Error("disk full"); } };
		const { toolResult, end } = await runOneCall(tool, { a: 1, b: 2 });
		expect(toolResult).toMatchObject({ isError: true, details: {} });
		expect(textOf(toolResult)).toBe("disk full");
		expect(end.isError).toBe(true);
	});

	test("a tool that throws synchronously (not an async function): error result", async () => {
		const tool: AgentTool<any> = {
			...addTool(),
			execute: (() => {
				throw new TypeError("sync boom");
			}) as AgentTool<any>["execute"],
		};
		const { toolResult } = await runOneCall(tool, { a: 1, b: 2 });
		expect(textOf(toolResult)).toBe("sync boom");
	});

	test("a tool that returns something that is not a result: error result", async () => {
		const tool: AgentTool<any> = { ...addTool(), execute: async () => "42" as never };
		const { toolResult } = await runOneCall(tool, { a: 1, b: 2 });
		expect(toolResult?.role === "toolResult" && toolResult.isError).toBe(true);
		expect(textOf(toolResult)).toContain('Tool "add" returned an invalid result');
	});

	test("a plain JSON Schema (e.g. from an MCP server) validates too", async () => {
		const tool: AgentTool<any> = {
			...addTool(),
			parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"] } as never,
			execute: async () => ({ content: [{ type: "text", text: "found" }], details: {} }),
		};
		const bad = await runOneCall(tool, { q: 5 });
		expect(textOf(bad.toolResult)).toContain("/q: expected string");
		const good = await runOneCall(tool, { q: "pi" });
		expect(textOf(good.toolResult)).toBe("found");
	});
});

describe("tool calls whose streamed JSON was invalid", () => {
	test("never reach execute, even when the partial value fits the schema; the model is told why", async () => {
		const { createProviderStream } = await import("@pi/ai");
		const read: AgentTool<any> & { calls: number } = {
			name: "read",
			label: "Read",
			description: "Reads a file",
			parameters: Type.Object({ path: Type.String() }),
			calls: 0,
			async execute() {
				read.calls++;
				return { content: [{ type: "text", text: "contents" }], details: {} };
			},
		};
		let call = 0;
		const streamFn = ((model: typeof testModel, _context: unknown, options: never) =>
			createProviderStream(model, options, async (builder) => {
				if (call++ === 0) {
					// The reply was cut inside the arguments, yet the wire said tool_use.
					const index = builder.startToolCall("c1", "read");
					builder.appendToolCallArguments(index, '{"path": "a.t');
					builder.finish("toolUse");
				} else {
					builder.appendText(builder.startText(), "sorry");
					builder.finish("stop");
				}
			})) as never;
		const { events, result } = await collect(
			agentLoop([user("go")], { systemPrompt: "", messages: [], tools: [read] }, config, undefined, streamFn),
		);
		assertRunInvariants(events);
		expect(read.calls).toBe(0);
		const toolResult = result.find((message) => message.role === "toolResult");
		expect(toolResult).toMatchObject({ toolCallId: "c1", isError: true });
		expect(textOf(toolResult)).toMatch(/^Invalid arguments for tool "read": the arguments were not valid JSON/);
	});
});
