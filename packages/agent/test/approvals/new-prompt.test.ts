import { Agent, type AgentEvent, agentLoop, createMemorySessionStorage, defaultConvertToLlm, NEW_MESSAGE_REJECTION, openSession, openToolCalls } from "@pi/agent-core";
import { fauxToolCall } from "@pi/ai";
import { describe, expect, it } from "vitest";
import { assertRunInvariants } from "../helpers/event-invariants.js";
import { reply, scriptedStream, testModel } from "../helpers/scripted-stream.js";
import { abortingTool, fileTool, finishTool, resultTexts, runsOf } from "./helpers.js";

describe("a new prompt while approvals wait", () => {
	it("first gives each pending call a rejected result, then the prompt, so the model sees a valid transcript", async () => {
		const remove = fileTool("delete_file", true);
		const streamFn = scriptedStream([
			reply([fauxToolCall("delete_file", { path: "a" }, { id: "a" }), fauxToolCall("delete_file", { path: "b" }, { id: "b" })]),
			reply("Fine, I left them."),
		]);
		const session = await openSession(createMemorySessionStorage());
		const agent = new Agent({ session, initialState: { model: testModel, tools: [remove] }, streamFn });
		const events: AgentEvent[] = [];
		agent.subscribe((event) => void events.push(event));
		await agent.prompt("clean");
		await agent.prompt("Actually, never mind.");
		expect(remove.ran).toEqual([]);
		expect(agent.state.pendingApprovals).toEqual([]);
		expect(streamFn.contexts[1]?.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "toolResult", "user"]);
		expect(resultTexts(agent.state.messages)).toEqual({
			a: `Tool call "delete_file" was rejected (${NEW_MESSAGE_REJECTION}).`,
			b: `Tool call "delete_file" was rejected (${NEW_MESSAGE_REJECTION}).`,
		});
		expect(NEW_MESSAGE_REJECTION).toBe("not approved: the user sent a new message");
		assertRunInvariants(runsOf(events)[1] as AgentEvent[]);
		// Stored: the session's context is the same transcript.
		expect((await session.buildContext()).messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "toolResult", "user", "assistant"]);
	});

	it("runs a call that was approved before the prompt, and rejects only the undecided one", async () => {
		const remove = fileTool("delete_file", true);
		const streamFn = scriptedStream([reply([fauxToolCall("delete_file", { path: "a" }, { id: "a" }), fauxToolCall("delete_file", { path: "b" }, { id: "b" })]), reply("ok")]);
		const agent = new Agent({ initialState: { model: testModel, tools: [remove] }, streamFn });
		await agent.prompt("clean");
		await agent.approve("a");
		await agent.prompt("and then stop");
		expect(remove.ran).toEqual(["delete_file:a"]);
		expect(resultTexts(agent.state.messages)).toEqual({ a: "delete_file done: a", b: `Tool call "delete_file" was rejected (${NEW_MESSAGE_REJECTION}).` });
		expect(agent.state.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "toolResult", "user", "assistant"]);
	});

	it("is never dropped: an approved call whose result asks to terminate still lets the prompt through to the model", async () => {
		const finish = finishTool();
		const streamFn = scriptedStream([reply([fauxToolCall("finish", {}, { id: "f" })]), reply("What next?")]);
		const agent = new Agent({ initialState: { model: testModel, tools: [finish] }, streamFn });
		await agent.prompt("wrap up");
		await agent.approve("f");
		await agent.prompt("and one more thing");
		expect(agent.state.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "user", "assistant"]);
		expect(streamFn.contexts).toHaveLength(2);
	});

	it("is never dropped when the run is aborted while the approved call runs: the prompt is in the transcript", async () => {
		let agent: Agent | undefined;
		const slow = abortingTool(() => agent as Agent);
		agent = new Agent({ initialState: { model: testModel, tools: [slow] }, streamFn: scriptedStream([reply([fauxToolCall("slow", {}, { id: "s" })]), reply("unused")]) });
		await agent.prompt("go");
		await agent.approve("s");
		await agent.prompt("are you done?");
		expect(agent.state.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "user", "assistant"]);
		expect(agent.state.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
	});

	it("with the loop functions too: prompts over pending calls reject them first", async () => {
		const remove = fileTool("delete_file", true);
		const streamFn = scriptedStream([reply([fauxToolCall("delete_file", { path: "a" }, { id: "a" })]), reply("ok")]);
		const config = { model: testModel, convertToLlm: defaultConvertToLlm };
		const first = agentLoop([{ role: "user", content: "clean", timestamp: 1 }], { systemPrompt: "", messages: [], tools: [remove] }, config, undefined, streamFn);
		const messages = await first.result();
		const open = openToolCalls(messages, [{ type: "tool_approval_request", toolCallId: "a", toolName: "delete_file", arguments: { path: "a" } }]);
		expect(open.map((call) => call.status)).toEqual(["pending"]);
		const second = agentLoop([{ role: "user", content: "never mind", timestamp: 2 }], { systemPrompt: "", messages, tools: [remove] }, { ...config, openToolCalls: open }, undefined, streamFn);
		const events: AgentEvent[] = [];
		for await (const event of second) events.push(event);
		assertRunInvariants(events);
		const added = await second.result();
		expect(added.map((m) => m.role)).toEqual(["toolResult", "user", "assistant"]);
		expect(resultTexts(added)).toEqual({ a: `Tool call "delete_file" was rejected (${NEW_MESSAGE_REJECTION}).` });
		expect(remove.ran).toEqual([]);
	});
});
