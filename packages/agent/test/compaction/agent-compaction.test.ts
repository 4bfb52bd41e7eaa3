/**
 * The Agent compacts by itself, over the scripted (faux) provider through the default
 * `streamSimple`: when the estimate passes the threshold, after an overflow (one compaction, one
 * retry; a second overflow ends the run), on abort and when the summary call fails.
 */
import { type Context, fauxAssistantMessage } from "@pi/ai";
import { afterEach, describe, expect, it } from "vitest";
import { Agent, type AgentEvent, type AgentMessage, type CompactionEndEvent } from "../../src/index.js";
import { record, textOf } from "../helpers/collect.js";
import { assertRunInvariants } from "../helpers/event-invariants.js";
import { history, long, setup, unregisterFaux } from "./faux-agent.js";
import { usage } from "./messages.js";

afterEach(() => unregisterFaux());

const compactionEnds = (events: AgentEvent[]) => events.filter((event): event is CompactionEndEvent => event.type === "compaction_end");
const roles = (messages: readonly AgentMessage[]) => messages.map((message) => message.role);

describe("compaction triggered by the estimate", () => {
	it("compacts before the model call that would pass contextWindow − reserveTokens, and the call sees the summary and the kept messages", async () => {
		const { model, summarizer, calls } = setup({ contextWindow: 4_000 });
		// A model with a larger window writes the summaries.
		const agent = new Agent({ initialState: { model }, compaction: { enabled: true, reserveTokens: 1_000, keepRecentTokens: 1_200, model: summarizer } });
		const events = record(agent);
		for (let prompt = 0; prompt < 3; prompt++) await agent.prompt(long(`prompt ${prompt}`));
		// Three turns of about 1,000 tokens fit; the fourth prompt makes the estimate pass 3,000.
		expect(compactionEnds(events)).toHaveLength(0);
		const start = events.length;
		await agent.prompt(long("prompt 3"));
		const run = events.slice(start);
		assertRunInvariants(run);

		expect(run.map((event) => event.type).slice(0, 6)).toEqual(["agent_start", "turn_start", "message_start", "message_end", "compaction_start", "compaction_end"]);
		const started = run[4] as Extract<AgentEvent, { type: "compaction_start" }>;
		const ended = run[5] as CompactionEndEvent;
		expect(started).toMatchObject({ reason: "threshold" });
		expect(started.tokensBefore).toBeGreaterThan(3_000);
		expect(ended).toMatchObject({ reason: "threshold", tokensBefore: started.tokensBefore, summary: "## Goal\nSummary 1." });
		expect(ended.tokensAfter).toBeLessThan(started.tokensBefore / 2);
		// The summary call got the old turns as a record.
		expect(calls.summaries).toHaveLength(1);
		expect(calls.summaryModels).toEqual(["summarizer"]);
		const record0 = JSON.stringify(calls.summaries[0]?.messages);
		for (const text of ["prompt 0", "answer 1", "prompt 1", "answer 2"]) expect(record0).toContain(text);
		expect(record0).not.toContain("prompt 2");

		// The model call after it: the summary as a user message, then the kept turns.
		const afterCompaction = calls.main[3] as Context;
		expect(textOf(afterCompaction.messages[0])).toContain("<summary>\n## Goal\nSummary 1.\n</summary>");
		expect(textOf(afterCompaction.messages.at(-1))).toContain("prompt 3");
		expect(JSON.stringify(afterCompaction.messages)).not.toContain("prompt 0");
		// The agent's transcript is the compacted one, and the event carried it.
		expect(agent.state.messages[0]).toMatchObject({ role: "compactionSummary", summary: "## Goal\nSummary 1.", tokensBefore: started.tokensBefore });
		expect(agent.state.messages.slice(0, -1)).toEqual(ended.messages);
		expect(roles(agent.state.messages.slice(1))).toEqual(["user", "assistant", "user", "assistant"]);
		// agent_end still lists every message the run added.
		const end = run.at(-1) as Extract<AgentEvent, { type: "agent_end" }>;
		expect(roles(end.messages)).toEqual(["user", "assistant"]);
	});

	it("does not compact again right after a compaction: kept usage is stale (pi #6464)", async () => {
		const { model, calls } = setup({ contextWindow: 4_000 });
		const agent = new Agent({ initialState: { model }, compaction: { enabled: true, reserveTokens: 1_000, keepRecentTokens: 1_200 } });
		const events = record(agent);
		for (let prompt = 0; prompt < 5; prompt++) await agent.prompt(long(`prompt ${prompt}`));
		const ends = compactionEnds(events);
		// Compactions come at most every other prompt, never twice in a row.
		expect(ends.length).toBeGreaterThanOrEqual(1);
		expect(calls.summaries).toHaveLength(ends.length);
		const agentStarts = events.flatMap((event, index) => (event.type === "agent_start" ? [index] : []));
		const runsWithCompaction = agentStarts.map((start, run) => events.slice(start, agentStarts[run + 1]).some((event) => event.type === "compaction_end"));
		for (let run = 1; run < runsWithCompaction.length; run++) expect(runsWithCompaction[run] && runsWithCompaction[run - 1]).toBe(false);
	});

	it("carries the previous summary into the next compaction", async () => {
		const { model, calls } = setup({ contextWindow: 4_000, summarise: (index) => fauxAssistantMessage(`## Goal\nSummary ${index} (project ORION-${index}).`) });
		// The agent's own model writes the summaries (its small window shortens the record, never the previous summary).
		const agent = new Agent({ initialState: { model }, compaction: { enabled: true, reserveTokens: 1_000, keepRecentTokens: 1_200 } });
		for (let prompt = 0; prompt < 8; prompt++) await agent.prompt(long(`prompt ${prompt}`));
		expect(calls.summaries.length).toBeGreaterThanOrEqual(2);
		expect(JSON.stringify(calls.summaries[1]?.messages)).toContain("<previous-summary>\\n## Goal\\nSummary 1 (project ORION-1).\\n</previous-summary>");
		expect(agent.state.messages.filter((message) => message.role === "compactionSummary")).toHaveLength(1);
	});

	it("is off by default", async () => {
		const { model, calls } = setup({ contextWindow: 4_000 });
		const agent = new Agent({ initialState: { model } });
		const events = record(agent);
		for (let prompt = 0; prompt < 5; prompt++) await agent.prompt(long(`prompt ${prompt}`));
		expect(compactionEnds(events)).toHaveLength(0);
		expect(calls.summaries).toHaveLength(0);
		expect(agent.state.messages).toHaveLength(10);
	});
});

describe("compaction triggered by an overflow", () => {
	const overflow = () => fauxAssistantMessage("", { stopReason: "error", errorMessage: "prompt is too long: 213462 tokens > 200000 maximum" });

	it("an overflow error leads to exactly one compaction and one retry of that call, without the failed reply", async () => {
		const { model, calls } = setup({ contextWindow: 200_000, answer: (index) => (index === 1 ? overflow() : fauxAssistantMessage("Recovered.")) });
		const agent = new Agent({ initialState: { model, messages: history(8) }, compaction: { enabled: true, keepRecentTokens: 1_500 } });
		const events = record(agent);
		await agent.prompt("And now?");
		assertRunInvariants(events);

		expect(calls.main).toHaveLength(2);
		expect(calls.summaries).toHaveLength(1);
		const types = events.map((event) => event.type);
		const firstEnd = types.indexOf("turn_end");
		expect(types.slice(firstEnd, firstEnd + 4)).toEqual(["turn_end", "turn_start", "compaction_start", "compaction_end"]);
		const ended = compactionEnds(events)[0] as CompactionEndEvent;
		expect(ended.reason).toBe("overflow");
		expect(ended.overflowReply).toMatchObject({ stopReason: "error" });
		// The retry is the same call on the compacted transcript: summary, kept turns, the prompt.
		const retry = calls.main[1] as Context;
		expect(textOf(retry.messages[0])).toContain("<summary>");
		expect(textOf(retry.messages.at(-1))).toBe("And now?");
		expect(retry.messages.some((message) => message.role === "assistant" && message.stopReason === "error")).toBe(false);
		// The transcript: summary, kept, prompt, answer; the overflow was recovered from.
		expect(agent.state.messages[0]?.role).toBe("compactionSummary");
		expect(textOf(agent.state.messages.at(-1))).toBe("Recovered.");
		expect(agent.state.messages.some((message) => message.role === "assistant" && message.stopReason === "error")).toBe(false);
		expect(agent.state.errorMessage).toBeUndefined();
		// agent_end lists what the run added, the failed reply included.
		const end = events.at(-1) as Extract<AgentEvent, { type: "agent_end" }>;
		expect(end.messages.map((message) => (message.role === "assistant" ? message.stopReason : message.role))).toEqual(["user", "error", "stop"]);
	});

	it("a silent overflow (usage above the window) is compacted and retried too", async () => {
		const { model, calls } = setup({
			contextWindow: 200_000,
			answer: (index) => (index === 1 ? { ...fauxAssistantMessage("Truncated answer."), usage: usage(230_000, 20) } : fauxAssistantMessage("Full answer.")),
		});
		const agent = new Agent({ initialState: { model, messages: history(8) }, compaction: { enabled: true, keepRecentTokens: 1_500 } });
		const events = record(agent);
		await agent.prompt("Go on.");
		assertRunInvariants(events);
		expect(calls.main).toHaveLength(2);
		expect(compactionEnds(events)[0]).toMatchObject({ reason: "overflow" });
		expect(textOf(agent.state.messages.at(-1))).toBe("Full answer.");
		expect(agent.state.messages.some((message) => textOf(message) === "Truncated answer.")).toBe(false);
	});

	it("a second overflow ends the run with its error: no loop", async () => {
		const { model, calls } = setup({ contextWindow: 200_000, answer: () => overflow() });
		const agent = new Agent({ initialState: { model, messages: history(8) }, compaction: { enabled: true, keepRecentTokens: 1_500 } });
		const events = record(agent);
		await agent.prompt("Still there?");
		assertRunInvariants(events);
		expect(calls.main).toHaveLength(2);
		expect(calls.summaries).toHaveLength(1);
		expect(events.filter((event) => event.type === "agent_end")).toHaveLength(1);
		expect(agent.state.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "error", errorMessage: expect.stringContaining("prompt is too long") });
		expect(agent.state.errorMessage).toContain("prompt is too long");
	});

	it("an overflow with nothing to cut is not retried", async () => {
		const { model, calls } = setup({ contextWindow: 200_000, answer: () => overflow() });
		const agent = new Agent({ initialState: { model }, compaction: { enabled: true } });
		await agent.prompt("Hello?");
		expect(calls.main).toHaveLength(1);
		expect(calls.summaries).toHaveLength(0);
		expect(agent.state.messages.at(-1)).toMatchObject({ stopReason: "error" });
	});

	it("without compaction, an overflow simply ends the run", async () => {
		const { model, calls } = setup({ contextWindow: 200_000, answer: () => overflow() });
		const agent = new Agent({ initialState: { model, messages: history(8) } });
		await agent.prompt("Hello?");
		expect(calls.main).toHaveLength(1);
		expect(calls.summaries).toHaveLength(0);
	});
});

describe("when compaction cannot finish", () => {
	it("an abort during the summary call stops it and keeps the transcript as it was", async () => {
		let agent: Agent | undefined;
		const { model, calls } = setup({
			contextWindow: 4_000,
			summarise: async () => {
				agent?.abort();
				await new Promise((resolve) => setTimeout(resolve, 20));
				return fauxAssistantMessage("## Goal\nToo late.");
			},
		});
		agent = new Agent({ initialState: { model, messages: history(3) }, compaction: { enabled: true, reserveTokens: 1_000, keepRecentTokens: 1_200 } });
		const before = agent.state.messages.slice();
		const events = record(agent);
		await agent.prompt(long("one more"));
		assertRunInvariants(events);
		expect(calls.summaries).toHaveLength(1);
		expect(calls.main).toHaveLength(0);
		expect(compactionEnds(events)).toEqual([expect.objectContaining({ aborted: true })]);
		expect(compactionEnds(events)[0]?.messages).toBeUndefined();
		// The transcript: everything before, the prompt, and the aborted turn's reply. No summary.
		expect(agent.state.messages.slice(0, before.length)).toEqual(before);
		expect(roles(agent.state.messages.slice(before.length))).toEqual(["user", "assistant"]);
		expect(agent.state.messages.at(-1)).toMatchObject({ stopReason: "aborted" });
		expect(events.at(-1)?.type).toBe("agent_end");
		expect(agent.state.isStreaming).toBe(false);
	});

	it("a failing summary call ends the run with a clear error and leaves the transcript uncompacted", async () => {
		const { model, calls } = setup({ contextWindow: 4_000, summarise: () => fauxAssistantMessage("", { stopReason: "error", errorMessage: "503 upstream overloaded" }) });
		const agent = new Agent({ initialState: { model, messages: history(3) }, compaction: { enabled: true, reserveTokens: 1_000, keepRecentTokens: 1_200 } });
		const before = agent.state.messages.slice();
		const events = record(agent);
		await agent.prompt(long("one more"));
		assertRunInvariants(events);
		expect(calls.main).toHaveLength(0);
		expect(compactionEnds(events)).toEqual([expect.objectContaining({ errorMessage: "the summary call failed: 503 upstream overloaded" })]);
		expect(agent.state.messages.slice(0, before.length)).toEqual(before);
		expect(agent.state.messages.some((message) => message.role === "compactionSummary")).toBe(false);
		expect(agent.state.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "error", errorMessage: "compaction failed: the summary call failed: 503 upstream overloaded" });
		expect(agent.state.errorMessage).toBe("compaction failed: the summary call failed: 503 upstream overloaded");
		// The agent stays usable.
		expect(agent.state.isStreaming).toBe(false);
	});

	it("a listener that throws at compaction_start ends the run with compaction_end and agent_end", async () => {
		const { model } = setup({ contextWindow: 4_000 });
		const agent = new Agent({ initialState: { model, messages: history(3) }, compaction: { enabled: true, reserveTokens: 1_000, keepRecentTokens: 1_200 } });
		const events = record(agent);
		agent.subscribe((event) => {
			if (event.type === "compaction_start") throw new Error("boom");
		});
		await agent.prompt(long("one more"));
		assertRunInvariants(events);
		expect(compactionEnds(events)).toEqual([expect.objectContaining({ errorMessage: "event listener failed: boom" })]);
		expect(agent.state.messages.at(-1)).toMatchObject({ stopReason: "error", errorMessage: "event listener failed: boom" });
	});
});
