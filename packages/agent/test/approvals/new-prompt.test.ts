import { Agent, type AgentEvent, createMemorySessionStorage, NEW_MESSAGE_REJECTION, openSession } from "@pi/agent-core";
import { fauxToolCall } from "@pi/ai";
import { describe, expect, it } from "vitest";
import { assertRunInvariants } from "../helpers/event-invariants.js";
import { reply, scriptedStream, testModel } from "../helpers/scripted-stream.js";
import { fileTool, resultTexts, runsOf } from "./helpers.js";

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
});
