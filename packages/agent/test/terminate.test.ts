import { fauxToolCall } from "@pi/ai";
import { describe, expect, test } from "vitest";
import { Agent, agentLoop, defaultConvertToLlm, type AgentLoopConfig, type AgentTool } from "../src/index.js";
import { collect, user } from "./helpers/collect.js";
import { assertRunInvariants } from "./helpers/event-invariants.js";
import { reply, scriptedStream, testModel } from "./helpers/scripted-stream.js";
import { customTool } from "./helpers/tools.js";

const stopper = (name: string, terminate: boolean | undefined): AgentTool<any> =>
	customTool(name, ({ text }) => ({ content: [{ type: "text", text }], details: {}, ...(terminate === undefined ? {} : { terminate }) }));

async function run(tools: AgentTool<any>[], calls: string[], extra: Partial<AgentLoopConfig> = {}) {
	const streamFn = scriptedStream([reply(calls.map((name) => fauxToolCall(name, { text: name }))), reply("after the tools")]);
	const { events, result } = await collect(
		agentLoop([user("go")], { systemPrompt: "", messages: [], tools }, { model: testModel, convertToLlm: defaultConvertToLlm, ...extra }, undefined, streamFn),
	);
	assertRunInvariants(events);
	return { events, result, streamFn };
}

describe("terminate", () => {
	test("when every result of the batch says terminate, the run ends after that batch", async () => {
		const { result, streamFn, events } = await run([stopper("a", true), stopper("b", true)], ["a", "b"]);
		expect(result.map((message) => message.role)).toEqual(["user", "assistant", "toolResult", "toolResult"]);
		expect(streamFn.contexts).toHaveLength(1);
		expect(events.at(-2)?.type).toBe("turn_end");
	});

	test("one result without terminate keeps the run going", async () => {
		const { result, streamFn } = await run([stopper("a", true), stopper("b", undefined)], ["a", "b"]);
		expect(streamFn.contexts).toHaveLength(2);
		expect(result.at(-1)).toMatchObject({ role: "assistant", stopReason: "stop" });
	});

	test("an error result (no terminate) keeps the run going", async () => {
		const { streamFn } = await run([stopper("a", true)], ["a", "missing"]);
		expect(streamFn.contexts).toHaveLength(2);
	});

	test("afterToolCall can set terminate…", async () => {
		const { streamFn } = await run([stopper("a", undefined)], ["a"], { afterToolCall: async () => ({ terminate: true }) });
		expect(streamFn.contexts).toHaveLength(1);
	});

	test("…and clear it", async () => {
		const { streamFn } = await run([stopper("a", true)], ["a"], { afterToolCall: async () => ({ terminate: false }) });
		expect(streamFn.contexts).toHaveLength(2);
	});

	test("queued follow-ups are not taken by a terminated run: they stay queued", async () => {
		const streamFn = scriptedStream([reply([fauxToolCall("a", { text: "x" })])]);
		const agent = new Agent({ initialState: { model: testModel, tools: [stopper("a", true)] }, streamFn });
		agent.subscribe((event) => {
			if (event.type === "tool_execution_start") agent.followUp(user("later"));
		});
		await agent.prompt("go");
		expect(agent.hasQueuedMessages()).toBe(true);
		expect(agent.state.messages.map((message) => message.role)).toEqual(["user", "assistant", "toolResult"]);
	});
});
