import { fauxToolCall } from "@pi/ai";
import { describe, expect, test } from "vitest";
import { Agent, agentLoop, defaultConvertToLlm } from "../src/index.js";
import { collect, user } from "./helpers/collect.js";
import { assertRunInvariants } from "./helpers/event-invariants.js";
import { reply, scriptedStream, testModel } from "./helpers/scripted-stream.js";
import { addTool } from "./helpers/tools.js";

const looping = (count: number) =>
	scriptedStream(Array.from({ length: count }, (_, i) => reply([fauxToolCall("add", { a: i, b: 1 })])));

describe("maxTurns", () => {
	test("a model that keeps calling tools is stopped after maxTurns model calls, its last tools included", async () => {
		const streamFn = looping(10);
		const { events, result } = await collect(
			agentLoop([user("loop")], { systemPrompt: "", messages: [], tools: [addTool()] }, { model: testModel, convertToLlm: defaultConvertToLlm, maxTurns: 3 }, undefined, streamFn),
		);
		assertRunInvariants(events);
		expect(streamFn.contexts).toHaveLength(3);
		expect(events.filter((event) => event.type === "turn_start")).toHaveLength(3);
		expect(result.at(-1)?.role).toBe("toolResult");
	});

	test("without maxTurns the loop runs until the model stops", async () => {
		const streamFn = scriptedStream([...Array.from({ length: 6 }, () => reply([fauxToolCall("add", { a: 1, b: 1 })])), reply("done")]);
		const { result } = await collect(
			agentLoop([user("loop")], { systemPrompt: "", messages: [], tools: [addTool()] }, { model: testModel, convertToLlm: defaultConvertToLlm }, undefined, streamFn),
		);
		expect(streamFn.contexts).toHaveLength(7);
		expect(result.at(-1)).toMatchObject({ role: "assistant", stopReason: "stop" });
	});

	test("values below 1 count as 1", async () => {
		const streamFn = looping(3);
		await collect(
			agentLoop([user("loop")], { systemPrompt: "", messages: [], tools: [addTool()] }, { model: testModel, convertToLlm: defaultConvertToLlm, maxTurns: 0 }, undefined, streamFn),
		);
		expect(streamFn.contexts).toHaveLength(1);
	});

	test("Agent: the limit applies per run; continue() resumes from the tool results; follow-ups stay queued", async () => {
		const streamFn = scriptedStream([reply([fauxToolCall("add", { a: 1, b: 1 })]), reply([fauxToolCall("add", { a: 2, b: 2 })]), reply("done")]);
		const agent = new Agent({ initialState: { model: testModel, tools: [addTool()] }, streamFn, maxTurns: 1 });
		agent.followUp(user("queued"));
		await agent.prompt("go");
		expect(agent.state.messages.map((message) => message.role)).toEqual(["user", "assistant", "toolResult"]);
		expect(agent.hasQueuedMessages()).toBe(true);
		await agent.continue();
		expect(streamFn.contexts).toHaveLength(2);
	});
});
