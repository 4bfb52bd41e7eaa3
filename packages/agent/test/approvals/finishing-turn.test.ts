import { Agent } from "@pi/agent-core";
import { fauxToolCall } from "@pi/ai";
import { describe, expect, it } from "vitest";
import { reply, scriptedStream, testModel } from "../helpers/scripted-stream.js";
import { abortingTool, fileTool, finishTool } from "./helpers.js";

describe("the turn that finishes an approved batch", () => {
	it("does not count towards maxTurns: with maxTurns 1 the approved call runs and the model is still called once", async () => {
		const remove = fileTool("delete_file", true);
		const streamFn = scriptedStream([reply([fauxToolCall("delete_file", { path: "a" }, { id: "a" })]), reply("Deleted."), reply("unused")]);
		const agent = new Agent({ initialState: { model: testModel, tools: [remove] }, streamFn, maxTurns: 1 });
		await agent.prompt("clean");
		await agent.approve("a");
		await agent.continue();
		expect(remove.ran).toEqual(["delete_file:a"]);
		expect(streamFn.contexts).toHaveLength(2);
		expect(agent.state.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "stop" });
	});

	it("ends the run without a model call when every result it delivers asks to terminate", async () => {
		const finish = finishTool();
		const streamFn = scriptedStream([reply([fauxToolCall("finish", {}, { id: "f" })]), reply("unused")]);
		const agent = new Agent({ initialState: { model: testModel, tools: [finish] }, streamFn });
		await agent.prompt("wrap up");
		await agent.approve("f");
		await agent.continue();
		expect(streamFn.contexts).toHaveLength(1);
		expect(agent.state.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult"]);
	});

	it("an abort while the approved tool runs gives it an aborted result and ends the run; it is not run again", async () => {
		let agent: Agent | undefined;
		const slow = abortingTool(() => agent as Agent);
		const streamFn = scriptedStream([reply([fauxToolCall("slow", {}, { id: "s" })]), reply("unused")]);
		agent = new Agent({ initialState: { model: testModel, tools: [slow] }, streamFn });
		await agent.prompt("go");
		await agent.approve("s");
		await agent.continue();
		expect(slow.runs).toBe(1);
		expect(agent.state.messages.at(-1)).toMatchObject({ role: "toolResult", toolCallId: "s", isError: true, content: [{ type: "text", text: "Tool execution was aborted." }] });
		expect(agent.state.pendingApprovals).toEqual([]);
		expect(streamFn.contexts).toHaveLength(1);
	});
});
