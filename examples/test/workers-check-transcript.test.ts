import type { AgentMessage, SessionEntry } from "@pi/agent-core";
import type { ToolResultMessage } from "@pi/ai";
import { describe, expect, it } from "vitest";
import { checkTranscript } from "../workers/check-transcript.js";
import { promptJob } from "../workers/prompt-job.js";
import { reply } from "../workers/scripted-model.js";

/** The crash test trusts this checker, so it must see each kind of damage. */
function transcript(turns: number, interruptAt?: string): SessionEntry[] {
	const messages: AgentMessage[] = [];
	const entries: SessionEntry[] = [];
	const push = (message: AgentMessage, idempotencyKey?: string) => {
		messages.push(message);
		const entry = { type: "message", id: `e${entries.length}`, parentId: entries.length === 0 ? null : `e${entries.length - 1}`, timestamp: 1, message } as SessionEntry;
		if (idempotencyKey) (entry as { idempotencyKey?: string }).idempotencyKey = idempotencyKey;
		entries.push(entry);
	};
	for (let turn = 1; turn <= turns; turn++) {
		const job = promptJob("run", "s1", turn, turns);
		push({ role: "user", content: job.prompt, timestamp: 1 }, job.idempotencyKey);
		for (;;) {
			const assistant = reply({ messages: messages as never });
			push(assistant);
			if (assistant.stopReason !== "toolUse") break;
			for (const block of assistant.content) {
				if (block.type !== "toolCall") continue;
				const interrupted = block.id === interruptAt;
				const result: ToolResultMessage = { role: "toolResult", toolCallId: block.id, toolName: block.name, content: [{ type: "text", text: interrupted ? "Tool call interrupted" : "5" }], isError: interrupted, timestamp: 1 };
				push(result);
			}
		}
	}
	return entries;
}

const relink = (entries: SessionEntry[]) => entries.map((entry, index) => ({ ...entry, id: `x${index}`, parentId: index === 0 ? null : `x${index - 1}` }) as SessionEntry);

describe("the crash test's transcript check", () => {
	it("passes a well-formed transcript and counts its interrupted results", () => {
		expect(checkTranscript(transcript(3), "s1", "run", 3)).toEqual({ problems: [], interruptedResults: 0 });
		expect(checkTranscript(transcript(3, "call_2_2"), "s1", "run", 3)).toEqual({ problems: [], interruptedResults: 1 });
	});

	it("finds a tool call without a result, and one with two", () => {
		const entries = transcript(2);
		const missing = relink(entries.filter((entry) => !(entry.type === "message" && entry.message.role === "toolResult" && entry.message.toolCallId === "call_1_2")));
		expect(checkTranscript(missing, "s1", "run", 2).problems.join("\n")).toMatch(/turn 1: tool call call_1_2 has 0 results, expected exactly 1/);
		const doubled = relink([...entries.slice(0, 4), entries[3] as SessionEntry, ...entries.slice(4)]);
		expect(checkTranscript(doubled, "s1", "run", 2).problems.join("\n")).toMatch(/turn 1: (tool call call_1_1 has 2 results|expected)/);
	});

	it("finds a prompt appended twice, and turns out of order", () => {
		const entries = transcript(2);
		const twice = relink([entries[0] as SessionEntry, ...entries]);
		expect(checkTranscript(twice, "s1", "run", 2).problems.join("\n")).toMatch(/prompts .*turn-1.*turn-1.*turn-2.*expected/);
		const reordered = relink([...entries.slice(7), ...entries.slice(0, 7)]);
		expect(checkTranscript(reordered, "s1", "run", 2).problems.join("\n")).toMatch(/prompts \["run\/s1\/turn-2","run\/s1\/turn-1"\]/);
	});

	it("finds a forked log and a repeated entry", () => {
		const entries = transcript(1);
		const forked = entries.map((entry, index) => (index === 3 ? { ...entry, parentId: "e1" } : entry)) as SessionEntry[];
		expect(checkTranscript(forked, "s1", "run", 1).problems.join("\n")).toMatch(/entry 3 \(e3\) hangs under e1.*the log forked/);
		const repeated = [...entries, { ...(entries[6] as SessionEntry), parentId: "e6" }] as SessionEntry[];
		expect(checkTranscript(repeated, "s1", "run", 1).problems.join("\n")).toMatch(/entry e6 appears twice/);
	});
});
