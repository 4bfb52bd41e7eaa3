import {
	Agent,
	approveToolCall,
	createMemorySessionStorage,
	openSession,
	pendingApprovals,
	rejectToolCall,
	SessionCorruptError,
	type SessionEntry,
} from "@pi/agent-core";
import { fauxToolCall } from "@pi/ai";
import { describe, expect, it } from "vitest";
import { reply, scriptedStream, testModel } from "../helpers/scripted-stream.js";
import { rawStorage } from "../session/helpers.js";
import { fileTool, resultTexts } from "./helpers.js";

async function pausedSession() {
	const storage = createMemorySessionStorage();
	const session = await openSession(storage);
	const remove = fileTool("delete_file", true);
	const streamFn = scriptedStream([reply([fauxToolCall("delete_file", { path: "a" }, { id: "a" }), fauxToolCall("delete_file", { path: "b" }, { id: "b" })])]);
	const agent = new Agent({ session, initialState: { model: testModel, tools: [remove] }, streamFn });
	await agent.prompt("clean");
	await session.close();
	return storage;
}

describe("pending approvals live in the session log", () => {
	it("the log holds one tool_approval_request per waiting call, after the assistant message", async () => {
		const storage = await pausedSession();
		const session = await openSession(storage.reopen());
		const entries = await session.entries();
		expect(entries.map((entry) => entry.type).slice(-3)).toEqual(["message", "tool_approval_request", "tool_approval_request"]);
		expect(entries.at(-1)).toMatchObject({ type: "tool_approval_request", toolCallId: "b", toolName: "delete_file", arguments: { path: "b" } });
		await session.close();
	});

	it("a new Agent on the reopened session has the same pendingApprovals, and pendingApprovals(session) agrees", async () => {
		const storage = await pausedSession();
		const session = await openSession(storage.reopen());
		const agent = new Agent({ session, initialState: { model: testModel, tools: [fileTool("delete_file", true)] } });
		const expected = [
			{ toolCallId: "a", toolName: "delete_file", arguments: { path: "a" } },
			{ toolCallId: "b", toolName: "delete_file", arguments: { path: "b" } },
		];
		expect(agent.state.pendingApprovals).toEqual(expected);
		expect(pendingApprovals(session)).toEqual(expected);
		await session.close();
	});

	it("approveToolCall/rejectToolCall decide on a session with no live Agent; an agent opened later acts on them", async () => {
		const storage = await pausedSession();
		const web = await openSession(storage.reopen());
		await approveToolCall(web, "a");
		await rejectToolCall(web, "b", { reason: "keep b" });
		await expect(approveToolCall(web, "b")).rejects.toThrow('tool call "b" was already rejected (pending: none)');
		await expect(rejectToolCall(web, "zzz")).rejects.toThrow('tool call "zzz" is not waiting for approval');
		expect(pendingApprovals(web)).toEqual([]);
		await web.close();

		const worker = await openSession(storage.reopen());
		const remove = fileTool("delete_file", true);
		const agent = new Agent({ session: worker, initialState: { model: testModel, tools: [remove] }, streamFn: scriptedStream([reply("done")]) });
		expect(agent.state.pendingApprovals).toEqual([]);
		await agent.continue();
		expect(remove.ran).toEqual(["delete_file:a"]);
		expect(resultTexts(agent.state.messages)).toEqual({ a: "delete_file done: a", b: 'Tool call "delete_file" was rejected (keep b).' });
		const decision = (await worker.entries()).find((entry) => entry.type === "tool_approval_decision" && entry.toolCallId === "b");
		expect(decision).toMatchObject({ approved: false, reason: "keep b" });
		await worker.close();
	});

	it("an agent sees a decision made through the same Session object by approveToolCall", async () => {
		const storage = await pausedSession();
		const session = await openSession(storage.reopen());
		const agent = new Agent({ session, initialState: { model: testModel, tools: [fileTool("delete_file", true)] } });
		await approveToolCall(session, "a");
		expect(agent.state.pendingApprovals.map((call) => call.toolCallId)).toEqual(["b"]);
		await session.close();
	});

	it("a malformed approval entry makes the log corrupt, naming the entry and the field", async () => {
		const base = { id: "x", parentId: null, timestamp: 1 };
		const cases: [unknown, RegExp][] = [
			[{ ...base, type: "tool_approval_request", toolCallId: "c", arguments: {} }, /entry x: a tool_approval_request needs "toolCallId" and "toolName" strings and an "arguments" object/],
			[{ ...base, type: "tool_approval_decision", toolCallId: "c", approved: "yes" }, /entry x: a tool_approval_decision needs a "toolCallId" string and an "approved" boolean/],
			[{ ...base, type: "tool_approval_decision", toolCallId: "c", approved: true, reason: 7 }, /entry x: a tool_approval_decision's "reason" must be a string/],
			[{ ...base, type: "tool_approval_run" }, /entry x: a tool_approval_run needs a "toolCallId" string/],
		];
		for (const [entry, message] of cases) {
			const opened = openSession(rawStorage([entry as SessionEntry]));
			await expect(opened).rejects.toBeInstanceOf(SessionCorruptError);
			await expect(openSession(rawStorage([entry as SessionEntry]))).rejects.toThrow(message);
		}
	});

	it("without a session, the records stay in memory, tied to the assistant message object", async () => {
		const remove = fileTool("delete_file", true);
		const agent = new Agent({ initialState: { model: testModel, tools: [remove] }, streamFn: scriptedStream([reply([fauxToolCall("delete_file", { path: "a" }, { id: "a" })])]) });
		await agent.prompt("clean");
		expect(agent.state.pendingApprovals).toHaveLength(1);
		const transcript = agent.state.messages.slice();
		agent.reset();
		expect(agent.state.pendingApprovals).toEqual([]);
		// The same message objects again: their records still apply.
		agent.state.messages = transcript;
		expect(agent.state.pendingApprovals.map((call) => call.toolCallId)).toEqual(["a"]);
		// A copy (a transcript restored from JSON) has no records in memory: the call counts as interrupted, not pending.
		agent.state.messages = structuredClone(transcript);
		expect(agent.state.pendingApprovals).toEqual([]);
	});
});
