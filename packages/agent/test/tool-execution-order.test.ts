import { fauxToolCall } from "@pi/ai";
import { describe, expect, test } from "vitest";
import { agentLoop, defaultConvertToLlm, type AgentEvent, type AgentTool, type ToolExecutionMode } from "../src/index.js";
import { collect } from "./helpers/collect.js";
import { assertRunInvariants } from "./helpers/event-invariants.js";
import { reply, scriptedStream, testModel } from "./helpers/scripted-stream.js";
import { customTool } from "./helpers/tools.js";

/** Three tools that finish in the reverse of the call order: slow (30 ms), medium (15 ms), fast. */
function raceTools(log: string[]): AgentTool<any>[] {
	const make = (name: string, ms: number) =>
		customTool(name, async ({ text }) => {
			log.push(`start ${name}`);
			await new Promise((resolve) => setTimeout(resolve, ms));
			log.push(`end ${name}`);
			return { content: [{ type: "text", text }], details: {} };
		});
	return [make("slow", 30), make("medium", 15), make("fast", 0)];
}

async function runBatch(mode: ToolExecutionMode | undefined, tools: AgentTool<any>[]) {
	const streamFn = scriptedStream([
		reply([
			fauxToolCall("slow", { text: "s" }, { id: "1" }),
			fauxToolCall("medium", { text: "m" }, { id: "2" }),
			fauxToolCall("fast", { text: "f" }, { id: "3" }),
		]),
		reply("done"),
	]);
	const { events } = await collect(
		agentLoop(
			[{ role: "user", content: "go", timestamp: 0 }],
			{ systemPrompt: "", messages: [], tools },
			{ model: testModel, convertToLlm: defaultConvertToLlm, ...(mode ? { toolExecution: mode } : {}) },
			undefined,
			streamFn,
		),
	);
	assertRunInvariants(events);
	const ids = (type: AgentEvent["type"]) =>
		events.flatMap((event) => {
			if (event.type !== type) return [];
			if (event.type === "message_end") return event.message.role === "toolResult" ? [event.message.toolCallId] : [];
			return "toolCallId" in event ? [event.toolCallId] : [];
		});
	return { events, ids, streamFn };
}

describe("parallel tool execution (default)", () => {
	test("tools run concurrently; starts in call order, ends in completion order, result messages in call order", async () => {
		const log: string[] = [];
		const { ids, streamFn } = await runBatch(undefined, raceTools(log));
		expect(log.slice(0, 3)).toEqual(["start slow", "start medium", "start fast"]);
		expect(ids("tool_execution_start")).toEqual(["1", "2", "3"]);
		expect(ids("tool_execution_end")).toEqual(["3", "2", "1"]);
		expect(ids("message_end")).toEqual(["1", "2", "3"]);
		// The model sees the results in the order it asked for them.
		expect(
			streamFn.contexts[1]?.messages.flatMap((message) => (message.role === "toolResult" ? [message.toolCallId] : [])),
		).toEqual(["1", "2", "3"]);
	});

	test("a tool with executionMode `sequential` waits for the calls before it and runs alone", async () => {
		const log: string[] = [];
		const [slow, medium, fast] = raceTools(log) as [AgentTool<any>, AgentTool<any>, AgentTool<any>];
		await runBatch("parallel", [slow, { ...medium, executionMode: "sequential" }, fast]);
		expect(log).toEqual(["start slow", "end slow", "start medium", "end medium", "start fast", "end fast"]);
	});
});

describe("sequential tool execution", () => {
	test("each call is prepared, run and delivered before the next starts", async () => {
		const log: string[] = [];
		const { events } = await runBatch("sequential", raceTools(log));
		expect(log).toEqual(["start slow", "end slow", "start medium", "end medium", "start fast", "end fast"]);
		const outline = events
			.filter((event) => event.type.startsWith("tool_") || (event.type === "message_end" && event.message.role === "toolResult"))
			.map((event) => ("toolCallId" in event ? `${event.type}:${event.toolCallId}` : `result:${(event as { message: { toolCallId: string } }).message.toolCallId}`));
		expect(outline).toEqual([
			"tool_execution_start:1",
			"tool_execution_end:1",
			"result:1",
			"tool_execution_start:2",
			"tool_execution_end:2",
			"result:2",
			"tool_execution_start:3",
			"tool_execution_end:3",
			"result:3",
		]);
	});

	test("never more than one tool running at a time", async () => {
		let running = 0;
		let peak = 0;
		const tool = (name: string) =>
			customTool(name, async () => {
				running++;
				peak = Math.max(peak, running);
				await new Promise((resolve) => setTimeout(resolve, 2));
				running--;
			});
		await runBatch("sequential", [tool("slow"), tool("medium"), tool("fast")]);
		expect(peak).toBe(1);
	});
});
