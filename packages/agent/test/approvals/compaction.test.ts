/**
 * Compaction never cuts between a pending tool call and its decision. Approval records are
 * entries, not messages, so the rule is on the cut: the assistant message of an open batch (and
 * the results it already has) always stays in the kept part, so that the call can still be
 * decided, run and answered after any compaction. Checked on generated transcripts, then end
 * to end through a session and an agent.
 */
import type { AssistantMessage, ToolCall, ToolResultMessage } from "@pi/ai";
import { fauxAssistantMessage, fauxToolCall } from "@pi/ai";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
	Agent,
	type AgentMessage,
	compact,
	createMemorySessionStorage,
	findCutPoint,
	openSession,
	openToolCalls,
	pendingApprovals,
	type ToolApprovalRecord,
} from "../../src/index.js";
import { reply, scriptedStream, testModel } from "../helpers/scripted-stream.js";
import { fileTool } from "./helpers.js";

function call(id: string, size: number): ToolCall {
	return fauxToolCall("work", { text: "x".repeat(size) }, { id });
}

function result(id: string, size: number): ToolResultMessage {
	return { role: "toolResult", toolCallId: id, toolName: "work", content: [{ type: "text", text: "r".repeat(size) }], isError: false, timestamp: 1 };
}

const turn: fc.Arbitrary<Turn> = fc.record({
	userSize: fc.integer({ min: 1, max: 2_000 }),
	calls: fc.array(fc.integer({ min: 1, max: 3_000 }), { maxLength: 3 }),
	textSize: fc.integer({ min: 0, max: 1_500 }),
});
const openBatch: fc.Arbitrary<OpenBatch> = fc.record({
	calls: fc.array(fc.record({ size: fc.integer({ min: 1, max: 3_000 }), answered: fc.boolean() }), { minLength: 1, maxLength: 4 }),
});

/** A transcript of finished turns, then a batch with at least one call left without a result. */
type Turn = { userSize: number; calls: number[]; textSize: number };
type OpenBatch = { calls: { size: number; answered: boolean }[] };

function transcript(turns: Turn[], batch: OpenBatch): { messages: AgentMessage[]; openIndex: number; records: ToolApprovalRecord[] } {
	const messages: AgentMessage[] = [];
	let next = 0;
	for (const plan of turns) {
		messages.push({ role: "user", content: "u".repeat(plan.userSize), timestamp: 1 });
		if (plan.calls.length > 0) {
			const ids = plan.calls.map(() => `t${next++}`);
			messages.push(fauxAssistantMessage(ids.map((id, index) => call(id, plan.calls[index] as number))));
			ids.forEach((id, index) => messages.push(result(id, plan.calls[index] as number)));
		}
		messages.push(fauxAssistantMessage("a".repeat(plan.textSize)));
	}
	messages.push({ role: "user", content: "do it", timestamp: 1 });
	const ids = batch.calls.map(() => `o${next++}`);
	const openIndex = messages.length;
	messages.push(fauxAssistantMessage(ids.map((id, index) => call(id, batch.calls[index]?.size as number))));
	const records: ToolApprovalRecord[] = [];
	batch.calls.forEach((plan, index) => {
		const id = ids[index] as string;
		// The last call always waits, so the batch is open.
		if (plan.answered && index < batch.calls.length - 1) messages.push(result(id, plan.size));
		else records.push({ type: "tool_approval_request", toolCallId: id, toolName: "work", arguments: {} });
	});
	return { messages, openIndex, records };
}

describe("compaction with pending tool calls", () => {
	it("on generated transcripts, every cut keeps the open batch's assistant message and its results, so the same calls stay pending", () => {
		fc.assert(
			fc.property(fc.array(turn, { minLength: 1, maxLength: 12 }), openBatch, fc.integer({ min: 0, max: 20_000 }), (turns, batch, keep) => {
				const { messages, openIndex, records } = transcript(turns, batch);
				const before = openToolCalls(messages, records);
				const cut = findCutPoint(messages, keep);
				if (cut.firstKeptIndex === 0) return;
				expect(cut.firstKeptIndex).toBeLessThanOrEqual(openIndex);
				expect(cut.turnStartIndex).toBeLessThanOrEqual(openIndex);
				expect(openToolCalls(messages.slice(cut.firstKeptIndex), records)).toEqual(before);
			}),
			{ numRuns: 400 },
		);
	});

	it("a compaction recorded while a call waits keeps it pending across a reopen; approving it afterwards runs it once", async () => {
		const storage = createMemorySessionStorage();
		const session = await openSession(storage);
		const big = "lorem ipsum ".repeat(2_000);
		const remove = fileTool("delete_file", true);
		const streamFn = scriptedStream([reply(big), reply(big), reply([fauxToolCall("delete_file", { path: "a" }, { id: "a" })]), reply("## Goal\nsummary"), reply("Deleted.")]);
		const agent = new Agent({ session, initialState: { model: testModel, tools: [remove] }, streamFn });
		await agent.prompt("first");
		await agent.prompt("second");
		await agent.prompt("delete a");
		expect(agent.state.pendingApprovals.map((c) => c.toolCallId)).toEqual(["a"]);

		// The app compacts by hand while the call waits, and records it like the agent does.
		const messages = agent.state.messages;
		const compaction = await compact(messages, { model: testModel, streamFn, keepRecentTokens: 100 });
		const firstKept = messages[compaction.firstKeptIndex] as AgentMessage;
		expect(compaction.firstKeptIndex).toBeLessThanOrEqual(messages.length - 1);
		const keptEntry = (await session.path()).find((entry) => entry.type === "message" && entry.message === firstKept);
		await session.append([{ type: "compaction", summary: compaction.summary, firstKeptEntryId: keptEntry?.id as string, tokensBefore: compaction.tokensBefore }]);
		expect(pendingApprovals(session).map((c) => c.toolCallId)).toEqual(["a"]);
		await session.close();

		const reopened = await openSession(storage.reopen());
		const worker = new Agent({ session: reopened, initialState: { model: testModel, tools: [remove] }, streamFn });
		expect(worker.state.messages[0]).toMatchObject({ role: "compactionSummary" });
		expect((worker.state.messages.at(-1) as AssistantMessage).content[0]).toMatchObject({ type: "toolCall", id: "a" });
		expect(worker.state.pendingApprovals.map((c) => c.toolCallId)).toEqual(["a"]);
		await worker.approve("a");
		await worker.continue();
		expect(remove.ran).toEqual(["delete_file:a"]);
		expect(worker.state.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "stop" });
		await reopened.close();
	});
});
