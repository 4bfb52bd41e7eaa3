import { Agent, type AgentEvent, type ToolExecutionMode } from "@pi/agent-core";
import { fauxToolCall } from "@pi/ai";
import { describe, expect, it } from "vitest";
import { assertRunInvariants } from "../helpers/event-invariants.js";
import { reply, scriptedStream, testModel } from "../helpers/scripted-stream.js";
import { fileTool, resultTexts, runsOf } from "./helpers.js";

describe.each<ToolExecutionMode>(["parallel", "sequential"])("a batch where some calls need approval (%s)", (toolExecution) => {
	function batchAgent() {
		const ran: string[] = [];
		const read = fileTool("read_file", false, ran);
		const remove = fileTool("delete_file", true, ran);
		const streamFn = scriptedStream([
			reply([
				fauxToolCall("read_file", { path: "a" }, { id: "call_a" }),
				fauxToolCall("delete_file", { path: "b" }, { id: "call_b" }),
				fauxToolCall("read_file", { path: "c" }, { id: "call_c" }),
				fauxToolCall("delete_file", { path: "d" }, { id: "call_d" }),
			]),
			reply("All done."),
		]);
		const agent = new Agent({ initialState: { model: testModel, tools: [read, remove] }, streamFn, toolExecution });
		const events: AgentEvent[] = [];
		agent.subscribe((event) => void events.push(event));
		return { agent, ran, streamFn, events };
	}

	it("runs the calls that need none at once, stores their results, and ends the run with the others pending", async () => {
		const { agent, ran, streamFn, events } = batchAgent();
		await agent.prompt("tidy up");
		expect(ran).toEqual(["read_file:a", "read_file:c"]);
		expect(agent.state.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "toolResult"]);
		expect(agent.state.pendingApprovals.map((call) => call.toolCallId)).toEqual(["call_b", "call_d"]);
		// Nothing went to the model while calls of the batch have no result.
		expect(streamFn.contexts).toHaveLength(1);
		const requests = events.filter((event) => event.type === "tool_approval_request").map((event) => (event as { toolCallId: string }).toolCallId);
		expect(requests).toEqual(["call_b", "call_d"]);
		assertRunInvariants(events);
	});

	it("one decision of two: continue() acts on it and ends without a model call; the second decision lets the model go on", async () => {
		const { agent, ran, streamFn, events } = batchAgent();
		await agent.prompt("tidy up");
		await agent.approve("call_d");
		await agent.continue();
		expect(ran).toEqual(["read_file:a", "read_file:c", "delete_file:d"]);
		expect(streamFn.contexts).toHaveLength(1);
		expect(agent.state.pendingApprovals.map((call) => call.toolCallId)).toEqual(["call_b"]);
		assertRunInvariants(runsOf(events)[1] as AgentEvent[]);
		// Once per call: the call still waiting is not asked about again.
		expect((runsOf(events)[1] as AgentEvent[]).some((event) => event.type === "tool_approval_request")).toBe(false);

		await agent.reject("call_b", { reason: "not that one" });
		await agent.continue();
		expect(ran).toHaveLength(3);
		expect(streamFn.contexts).toHaveLength(2);
		expect(streamFn.contexts[1]?.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "toolResult", "toolResult", "toolResult"]);
		expect(resultTexts(agent.state.messages)).toEqual({
			call_a: "read_file done: a",
			call_b: 'Tool call "delete_file" was rejected (not that one).',
			call_c: "read_file done: c",
			call_d: "delete_file done: d",
		});
		assertRunInvariants(runsOf(events)[2] as AgentEvent[]);
	});

	it("both approved: both run in the finishing turn, results in call order, then the model is called once", async () => {
		const { agent, ran, streamFn, events } = batchAgent();
		await agent.prompt("tidy up");
		await agent.approve("call_b");
		await agent.approve("call_d");
		await agent.continue();
		expect(ran).toEqual(["read_file:a", "read_file:c", "delete_file:b", "delete_file:d"]);
		const second = runsOf(events)[1] as AgentEvent[];
		const results = second.filter((event) => event.type === "message_end" && event.message.role === "toolResult");
		expect(results.map((event) => (event as { message: { toolCallId: string } }).message.toolCallId)).toEqual(["call_b", "call_d"]);
		expect(streamFn.contexts).toHaveLength(2);
		expect(agent.state.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "stop" });
		assertRunInvariants(second);
	});
});

/** A `slow` tool that needs approval, and the most of its calls that ran at once. */
function slowTool(executionMode?: "sequential") {
	const state = { running: 0, overlap: 0 };
	const slow = fileTool("slow", true);
	if (executionMode) slow.executionMode = executionMode;
	const execute = slow.execute.bind(slow);
	slow.execute = async (...args) => {
		state.running++;
		state.overlap = Math.max(state.overlap, state.running);
		await new Promise((resolve) => setImmediate(resolve));
		state.running--;
		return execute(...args);
	};
	return { slow, state };
}

/** Pauses on two calls of `slow`, approves both, continues. */
async function approveBoth(slow: ReturnType<typeof slowTool>["slow"]): Promise<void> {
	const streamFn = scriptedStream([reply([fauxToolCall("slow", { path: "x" }, { id: "x" }), fauxToolCall("slow", { path: "y" }, { id: "y" })]), reply("ok")]);
	const agent = new Agent({ initialState: { model: testModel, tools: [slow] }, streamFn });
	await agent.prompt("go");
	await agent.approve("x");
	await agent.approve("y");
	await agent.continue();
}

describe("approved calls in parallel mode", () => {
	it("run concurrently, as the batch's other calls would", async () => {
		const { slow, state } = slowTool();
		await approveBoth(slow);
		expect(state.overlap).toBe(2);
		expect(slow.ran.sort()).toEqual(["slow:x", "slow:y"]);
	});

	it("a tool with executionMode sequential still runs alone", async () => {
		const { slow, state } = slowTool("sequential");
		await approveBoth(slow);
		expect(state.overlap).toBe(1);
		expect(slow.ran).toEqual(["slow:x", "slow:y"]);
	});
});
