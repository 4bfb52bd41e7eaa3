import { fauxToolCall } from "@pi/ai";
import { describe, expect, test } from "vitest";
import { agentLoop, defaultConvertToLlm } from "../src/index.js";
import { collect, gate } from "./helpers/collect.js";
import { assertRunInvariants } from "./helpers/event-invariants.js";
import { reply, scriptedStream, testModel } from "./helpers/scripted-stream.js";
import { customTool } from "./helpers/tools.js";

describe("tool progress", () => {
	test("onUpdate streams tool_execution_update events between the tool's start and end", async () => {
		const release = gate();
		const progress = customTool("slow", async ({ text }, _signal, onUpdate) => {
			onUpdate?.({ content: [{ type: "text", text: "25%" }], details: { pct: 25 } });
			await release.promise;
			onUpdate?.({ content: [{ type: "text", text: "75%" }], details: { pct: 75 } });
			return { content: [{ type: "text", text }], details: { pct: 100 } };
		});
		const streamFn = scriptedStream([reply([fauxToolCall("slow", { text: "x" }, { id: "p" })]), reply("ok")]);
		const stream = agentLoop(
			[{ role: "user", content: "go", timestamp: 0 }],
			{ systemPrompt: "", messages: [], tools: [progress] },
			{ model: testModel, convertToLlm: defaultConvertToLlm },
			undefined,
			streamFn,
		);
		setTimeout(() => release.resolve(), 5);
		const { events } = await collect(stream);
		assertRunInvariants(events);
		const updates = events.filter((event) => event.type === "tool_execution_update");
		expect(updates.map((event) => (event.partialResult.details as { pct: number }).pct)).toEqual([25, 75]);
		expect(updates[0]).toMatchObject({ toolCallId: "p", toolName: "slow", args: { text: "x" } });
	});

	test("progress reported after the tool finished is dropped", async () => {
		let late: ((partial: { content: []; details: object }) => void) | undefined;
		const tool = customTool("fast", (_params, _signal, onUpdate) => {
			late = onUpdate as typeof late;
		});
		const streamFn = scriptedStream([reply([fauxToolCall("fast", { text: "x" })]), reply("ok")]);
		const { events } = await collect(
			agentLoop(
				[{ role: "user", content: "go", timestamp: 0 }],
				{ systemPrompt: "", messages: [], tools: [tool] },
				{ model: testModel, convertToLlm: defaultConvertToLlm },
				undefined,
				streamFn,
			),
		);
		late?.({ content: [], details: {} });
		await new Promise((resolve) => setTimeout(resolve, 5));
		assertRunInvariants(events);
		expect(events.some((event) => event.type === "tool_execution_update")).toBe(false);
	});
});
