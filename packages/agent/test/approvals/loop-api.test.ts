import { type AgentContext, type AgentEvent, agentLoop, agentLoopContinue, type AgentLoopConfig, defaultConvertToLlm, openToolCalls, type ToolApprovalRecord } from "@pi/agent-core";
import { fauxToolCall } from "@pi/ai";
import { describe, expect, it } from "vitest";
import { assertRunInvariants } from "../helpers/event-invariants.js";
import { reply, scriptedStream, testModel } from "../helpers/scripted-stream.js";
import { fileTool, resultTexts } from "./helpers.js";

describe("approvals with the loop functions alone", () => {
	it("the app keeps the records from the events, and openToolCalls() tells agentLoopContinue what to do", async () => {
		const remove = fileTool("delete_file", true);
		const streamFn = scriptedStream([reply([fauxToolCall("delete_file", { path: "a" }, { id: "a" }), fauxToolCall("delete_file", { path: "b" }, { id: "b" })]), reply("done")]);
		const config: AgentLoopConfig = { model: testModel, convertToLlm: defaultConvertToLlm };
		const context: AgentContext = { systemPrompt: "", messages: [], tools: [remove] };
		const records: ToolApprovalRecord[] = [];
		const first = agentLoop([{ role: "user", content: "clean", timestamp: 1 }], context, config, undefined, streamFn);
		const firstEvents: AgentEvent[] = [];
		for await (const event of first) {
			firstEvents.push(event);
			if (event.type === "tool_approval_request") records.push({ type: "tool_approval_request", toolCallId: event.toolCallId, toolName: event.toolName, arguments: event.args });
		}
		assertRunInvariants(firstEvents);
		const messages = await first.result();
		expect(openToolCalls(messages, records).map((call) => [call.toolCall.id, call.status])).toEqual([
			["a", "pending"],
			["b", "pending"],
		]);

		records.push({ type: "tool_approval_decision", toolCallId: "a", approved: true }, { type: "tool_approval_decision", toolCallId: "b", approved: false, reason: "no" });
		const open = openToolCalls(messages, records);
		const second = agentLoopContinue({ ...context, messages }, { ...config, openToolCalls: open }, undefined, streamFn);
		const events: AgentEvent[] = [];
		for await (const event of second) events.push(event);
		assertRunInvariants(events);
		const added = await second.result();
		expect(remove.ran).toEqual(["delete_file:a"]);
		expect(resultTexts(added)).toEqual({ a: "delete_file done: a", b: 'Tool call "delete_file" was rejected (no).' });
		expect(added.at(-1)).toMatchObject({ role: "assistant", stopReason: "stop" });
	});

	it("openToolCalls naming a call that is not open ends the run with an error naming it", async () => {
		const remove = fileTool("delete_file", true);
		const messages = [{ role: "user" as const, content: "hi", timestamp: 1 }];
		const stray = { toolCall: fauxToolCall("delete_file", { path: "a" }, { id: "ghost" }), status: "approved" as const };
		const run = agentLoopContinue({ systemPrompt: "", messages, tools: [remove] }, { model: testModel, convertToLlm: defaultConvertToLlm, openToolCalls: [stray] }, undefined, scriptedStream([]));
		const added = await run.result();
		expect(added.at(-1)).toMatchObject({ role: "assistant", stopReason: "error", errorMessage: "openToolCalls failed: tool call ghost is not an unanswered call of the transcript's last assistant message" });
		expect(remove.ran).toEqual([]);
	});
});
