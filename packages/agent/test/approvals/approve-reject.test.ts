import { Agent, type AgentEvent, ToolApprovalError } from "@pi/agent-core";
import { fauxToolCall } from "@pi/ai";
import { describe, expect, it } from "vitest";
import { assertRunInvariants, types } from "../helpers/event-invariants.js";
import { reply, scriptedStream, testModel } from "../helpers/scripted-stream.js";
import { fileTool, resultTexts, runsOf } from "./helpers.js";

function pausedAgent() {
	const deleteFile = fileTool("delete_file", true);
	const streamFn = scriptedStream([reply([fauxToolCall("delete_file", { path: "tmp/a.log" }, { id: "call_1" })]), reply("Deleted.")]);
	const agent = new Agent({ initialState: { model: testModel, tools: [deleteFile] }, streamFn });
	const events: AgentEvent[] = [];
	agent.subscribe((event) => void events.push(event));
	return { agent, deleteFile, streamFn, events };
}

describe("a tool call that needs approval", () => {
	it("pauses the run: one tool_approval_request, agent_end, the call pending, the tool not run, no second model call", async () => {
		const { agent, deleteFile, streamFn, events } = pausedAgent();
		await agent.prompt("Clean up the temp files");
		expect(deleteFile.ran).toEqual([]);
		expect(streamFn.contexts).toHaveLength(1);
		expect(agent.state.pendingApprovals).toEqual([{ toolCallId: "call_1", toolName: "delete_file", arguments: { path: "tmp/a.log" } }]);
		expect(events.filter((event) => event.type === "tool_approval_request")).toEqual([
			{ type: "tool_approval_request", toolCallId: "call_1", toolName: "delete_file", args: { path: "tmp/a.log" } },
		]);
		expect(types(events).slice(-3)).toEqual(["tool_approval_request", "turn_end", "agent_end"]);
		assertRunInvariants(events);
		expect(agent.state.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
	});

	it("approve() then continue(): runs the tool once, then the model goes on with its result", async () => {
		const { agent, deleteFile, streamFn, events } = pausedAgent();
		await agent.prompt("Clean up the temp files");
		await agent.approve("call_1");
		expect(agent.state.pendingApprovals).toEqual([]);
		await agent.continue();
		expect(deleteFile.ran).toEqual(["delete_file:tmp/a.log"]);
		expect(streamFn.contexts[1]?.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult"]);
		expect(resultTexts(agent.state.messages)).toEqual({ call_1: "delete_file done: tmp/a.log" });
		expect(agent.state.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "stop" });
		const second = runsOf(events)[1] as AgentEvent[];
		assertRunInvariants(second);
		// The open batch is finished in a turn with no model call, then the model's turn follows.
		expect(types(second).slice(0, 8)).toEqual([
			"agent_start",
			"turn_start",
			"tool_execution_start",
			"tool_execution_end",
			"message_start",
			"message_end",
			"turn_end",
			"turn_start",
		]);
		// Approved once: a second continue() has nothing to act on and the tool stays at one run.
		await expect(agent.continue()).rejects.toThrow(/Cannot continue from message role: assistant/);
		expect(deleteFile.ran).toHaveLength(1);
	});

	it("reject() then continue(): the call gets an error result that says it was rejected and why, and the model reads it", async () => {
		const { agent, deleteFile, streamFn, events } = pausedAgent();
		await agent.prompt("Clean up the temp files");
		await agent.reject("call_1", { reason: "keep the logs" });
		await agent.continue();
		expect(deleteFile.ran).toEqual([]);
		const result = agent.state.messages[2];
		expect(result).toMatchObject({ role: "toolResult", toolCallId: "call_1", isError: true, details: { rejected: true, reason: "keep the logs" } });
		expect(resultTexts(agent.state.messages).call_1).toBe('Tool call "delete_file" was rejected (keep the logs).');
		expect(streamFn.contexts[1]?.messages.at(-1)).toMatchObject({ role: "toolResult", toolCallId: "call_1", isError: true });
		assertRunInvariants(runsOf(events)[1] as AgentEvent[]);
	});

	it("a rejection without a reason says only that", async () => {
		const { agent } = pausedAgent();
		await agent.prompt("Clean up the temp files");
		await agent.reject("call_1");
		await agent.continue();
		expect(resultTexts(agent.state.messages).call_1).toBe('Tool call "delete_file" was rejected.');
	});

	it("approve() and reject() of an unknown or already decided id throw an error naming it", async () => {
		const { agent } = pausedAgent();
		await agent.prompt("Clean up the temp files");
		await expect(agent.approve("call_9")).rejects.toThrow('tool call "call_9" is not waiting for approval (pending: call_1)');
		await agent.approve("call_1");
		await expect(agent.approve("call_1")).rejects.toThrow('tool call "call_1" was already approved (pending: none)');
		await expect(agent.reject("call_1")).rejects.toThrow('tool call "call_1" was already approved');
		const error = await agent.approve("call_1").catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(ToolApprovalError);
		expect(error).toMatchObject({ name: "ToolApprovalError", toolCallId: "call_1", kind: "approved" });
		await expect(agent.reject("call_9")).rejects.toMatchObject({ toolCallId: "call_9", kind: "not-pending" });
	});

	it("continue() with every call undecided resolves at once: no run, no model call, the calls still pending", async () => {
		const { agent, streamFn, events } = pausedAgent();
		await agent.prompt("Clean up the temp files");
		const before = events.length;
		await agent.continue();
		expect(events.length).toBe(before);
		expect(streamFn.contexts).toHaveLength(1);
		expect(agent.state.pendingApprovals.map((call) => call.toolCallId)).toEqual(["call_1"]);
	});
});
