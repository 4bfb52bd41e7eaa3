import { fauxToolCall } from "@pi/ai";
import { describe, expect, test } from "vitest";
import {
	type AfterToolCallContext,
	type AgentLoopConfig,
	agentLoop,
	type BeforeToolCallContext,
	defaultConvertToLlm,
} from "../src/index.js";
import { collect, textOf, user } from "./helpers/collect.js";
import { assertRunInvariants } from "./helpers/event-invariants.js";
import { reply, scriptedStream, testModel } from "./helpers/scripted-stream.js";
import { addTool } from "./helpers/tools.js";

async function run(hooks: Partial<AgentLoopConfig>, args: Record<string, unknown> = { a: 2, b: 2 }) {
	const add = addTool();
	const streamFn = scriptedStream([reply([fauxToolCall("add", args, { id: "c1" })]), reply("ok")]);
	const { events, result } = await collect(
		agentLoop(
			[user("go")],
			{ systemPrompt: "", messages: [], tools: [add] },
			{ model: testModel, convertToLlm: defaultConvertToLlm, ...hooks },
			undefined,
			streamFn,
		),
	);
	assertRunInvariants(events);
	const toolResult = result.find((message) => message.role === "toolResult");
	return { add, events, toolResult };
}

describe("beforeToolCall", () => {
	test("gets the reply, the call, the validated arguments and the context, after validation", async () => {
		let seen: BeforeToolCallContext | undefined;
		let seenSignal: AbortSignal | undefined;
		let rolesAtCall: string[] = [];
		const { add } = await run({
			beforeToolCall: async (context, signal) => {
				seen = context;
				rolesAtCall = context.context.messages.map((message) => message.role);
				seenSignal = signal;
				return undefined;
			},
		});
		expect(add.calls).toBe(1);
		expect(seen?.args).toEqual({ a: 2, b: 2 });
		expect(seen?.toolCall).toMatchObject({ id: "c1", name: "add" });
		expect(seen?.assistantMessage.stopReason).toBe("toolUse");
		expect(rolesAtCall).toEqual(["user", "assistant"]);
		expect(seenSignal).toBeInstanceOf(AbortSignal);
	});

	test("is not called when the arguments are invalid", async () => {
		let called = false;
		await run({ beforeToolCall: async () => ((called = true), undefined) }, { a: "x" });
		expect(called).toBe(false);
	});

	test("blocking with a reason: execute never runs; the reason is the error result", async () => {
		const { add, toolResult, events } = await run({ beforeToolCall: async () => ({ block: true, reason: "Not on Sundays." }) });
		expect(add.calls).toBe(0);
		expect(toolResult).toMatchObject({ isError: true });
		expect(textOf(toolResult)).toBe("Not on Sundays.");
		expect(events.find((event) => event.type === "tool_execution_end")).toMatchObject({ isError: true });
	});

	test("blocking without a reason gives a default text", async () => {
		const { toolResult } = await run({ beforeToolCall: async () => ({ block: true }) });
		expect(textOf(toolResult)).toBe('Tool call "add" was blocked.');
	});
});

describe("afterToolCall", () => {
	test("sees the executed result; returning nothing keeps it", async () => {
		let seen: AfterToolCallContext | undefined;
		const { toolResult } = await run({ afterToolCall: async (context) => ((seen = context), undefined) });
		expect(seen?.result).toMatchObject({ details: { sum: 4 } });
		expect(seen?.isError).toBe(false);
		expect(seen?.args).toEqual({ a: 2, b: 2 });
		expect(toolResult).toMatchObject({ isError: false, details: { sum: 4 }, content: [{ type: "text", text: "4" }] });
	});

	test("overrides content, details and isError field by field, before tool_execution_end", async () => {
		const { toolResult, events } = await run({
			afterToolCall: async () => ({ content: [{ type: "text", text: "redacted" }], isError: true }),
		});
		expect(toolResult).toMatchObject({ isError: true, details: { sum: 4 }, content: [{ type: "text", text: "redacted" }] });
		expect(events.find((event) => event.type === "tool_execution_end")).toMatchObject({
			isError: true,
			result: { content: [{ type: "text", text: "redacted" }], details: { sum: 4 } },
		});
	});

	test("replaces details in full (no deep merge)", async () => {
		const { toolResult } = await run({ afterToolCall: async () => ({ details: { audited: true } }) });
		expect(toolResult).toMatchObject({ details: { audited: true } });
		expect(toolResult?.role === "toolResult" && toolResult.details).not.toHaveProperty("sum");
	});

	test("also runs for a tool that threw, and can turn the failure into a success", async () => {
		const add = addTool();
		const failing = { ...add, execute: async () => Promise.reject(new Error("flaky")) };
		const streamFn = scriptedStream([reply([fauxToolCall("add", { a: 1, b: 1 })]), reply("ok")]);
		const { result } = await collect(
			agentLoop(
				[user("go")],
				{ systemPrompt: "", messages: [], tools: [failing] },
				{
					model: testModel,
					convertToLlm: defaultConvertToLlm,
					afterToolCall: async ({ isError, result }) => {
						expect(isError).toBe(true);
						expect(textOf({ role: "user", content: result.content, timestamp: 0 })).toBe("flaky");
						return { isError: false, content: [{ type: "text", text: "recovered" }] };
					},
				},
				undefined,
				streamFn,
			),
		);
		const toolResult = result.find((message) => message.role === "toolResult");
		expect(toolResult).toMatchObject({ isError: false, content: [{ type: "text", text: "recovered" }] });
	});
});
