import { Agent, type AgentEvent, type AgentMessage, defineTool } from "@pi/agent-core";
import { fauxToolCall } from "@pi/ai";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { assertRunInvariants } from "../helpers/event-invariants.js";
import { reply, scriptedStream, testModel } from "../helpers/scripted-stream.js";
import { fileTool, resultTexts } from "./helpers.js";

describe("needsApproval as a predicate", () => {
	it("is asked with the validated arguments, the call id and the transcript; only the calls it answers true for wait", async () => {
		const asked: { path: string; toolCallId: string; last: string }[] = [];
		const remove = fileTool("delete_file", (args, context) => {
			asked.push({ path: args.path, toolCallId: context.toolCallId, last: (context.messages.at(-1) as AgentMessage & { role: string }).role });
			return args.path.startsWith("/etc/");
		});
		const streamFn = scriptedStream([
			reply([fauxToolCall("delete_file", { path: "tmp/x" }, { id: "tmp" }), fauxToolCall("delete_file", { path: "/etc/passwd" }, { id: "etc" })]),
			reply("unused"),
		]);
		const agent = new Agent({ initialState: { model: testModel, tools: [remove] }, streamFn });
		await agent.prompt("clean");
		expect(asked).toEqual([
			{ path: "tmp/x", toolCallId: "tmp", last: "assistant" },
			{ path: "/etc/passwd", toolCallId: "etc", last: "assistant" },
		]);
		expect(remove.ran).toEqual(["delete_file:tmp/x"]);
		expect(agent.state.pendingApprovals.map((call) => call.toolCallId)).toEqual(["etc"]);

		// An approved call is not asked about again when it runs.
		await agent.approve("etc");
		await agent.continue();
		expect(asked).toHaveLength(2);
		expect(remove.ran).toEqual(["delete_file:tmp/x", "delete_file:/etc/passwd"]);
	});

	it("may be async", async () => {
		const remove = fileTool("delete_file", async () => {
			await new Promise((resolve) => setImmediate(resolve));
			return true;
		});
		const agent = new Agent({ initialState: { model: testModel, tools: [remove] }, streamFn: scriptedStream([reply([fauxToolCall("delete_file", { path: "a" }, { id: "a" })])]) });
		await agent.prompt("clean");
		expect(agent.state.pendingApprovals.map((call) => call.toolCallId)).toEqual(["a"]);
	});

	it("is never asked about invalid arguments: the call fails validation as usual and nothing waits", async () => {
		let asked = 0;
		const remove = fileTool("delete_file", () => {
			asked++;
			return true;
		});
		const streamFn = scriptedStream([reply([fauxToolCall("delete_file", { path: 42 }, { id: "bad" })]), reply("sorry")]);
		const agent = new Agent({ initialState: { model: testModel, tools: [remove] }, streamFn });
		await agent.prompt("clean");
		expect(asked).toBe(0);
		expect(agent.state.pendingApprovals).toEqual([]);
		expect(agent.state.messages[2]).toMatchObject({ role: "toolResult", toolCallId: "bad", isError: true });
		expect(resultTexts(agent.state.messages).bad).toMatch(/path/);
	});

	it("that throws ends the run with an error naming needsApproval, and every call gets a result", async () => {
		const remove = fileTool("delete_file", () => {
			throw new Error("policy service down");
		});
		const events: AgentEvent[] = [];
		const agent = new Agent({ initialState: { model: testModel, tools: [remove] }, streamFn: scriptedStream([reply([fauxToolCall("delete_file", { path: "a" }, { id: "a" })])]) });
		agent.subscribe((event) => void events.push(event));
		await agent.prompt("clean");
		expect(agent.state.errorMessage).toBe("needsApproval failed: policy service down");
		expect(agent.state.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
		expect(remove.ran).toEqual([]);
		assertRunInvariants(events);
	});

	it("needsApproval: false runs the call at once", async () => {
		const remove = fileTool("delete_file", false);
		const agent = new Agent({ initialState: { model: testModel, tools: [remove] }, streamFn: scriptedStream([reply([fauxToolCall("delete_file", { path: "a" }, { id: "a" })]), reply("ok")]) });
		await agent.prompt("clean");
		expect(remove.ran).toEqual(["delete_file:a"]);
	});

	it("defineTool types the predicate's arguments from the schema", () => {
		const tool = defineTool({
			name: "pay",
			label: "Pay",
			description: "Pays an amount.",
			parameters: Type.Object({ amount: Type.Number() }),
			needsApproval: (args) => args.amount > 100,
			execute: async (_id, { amount }) => ({ content: [{ type: "text", text: `paid ${amount}` }], details: {} }),
		});
		expect(typeof tool.needsApproval).toBe("function");
	});
});
