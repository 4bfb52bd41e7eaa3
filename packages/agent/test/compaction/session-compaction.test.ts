/**
 * Compaction with a session: each compaction appends a `compaction` entry (summary,
 * firstKeptEntryId, tokensBefore); nothing is deleted from the log; `buildContext()` gives the
 * summary and the kept messages; and reopening the session (in memory and as a JSONL file)
 * reproduces exactly the context the agent had.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fauxAssistantMessage } from "@pi/ai";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Agent, type CompactionEntry, createMemorySessionStorage, openSession, type SessionEntry } from "../../src/index.js";
import { openSessionFile } from "../../src/node/index.js";
import { record, textOf } from "../helpers/collect.js";
import { assertRunInvariants } from "../helpers/event-invariants.js";
import { long, setup, unregisterFaux } from "./faux-agent.js";

afterEach(() => {
	unregisterFaux();
	vi.restoreAllMocks();
});

/** A clock that ticks on every reading, so that no two timestamps are equal (a real session spans time). */
function tickingClock(): void {
	let now = Date.now();
	vi.spyOn(Date, "now").mockImplementation(() => ++now);
}

const settings = { enabled: true, reserveTokens: 1_000, keepRecentTokens: 1_200 } as const;
const compactions = (entries: SessionEntry[]) => entries.filter((entry): entry is CompactionEntry => entry.type === "compaction");
const messageEntries = (entries: SessionEntry[]) => entries.filter((entry) => entry.type === "message");

describe("compaction in a session", () => {
	it("appends a compaction entry, deletes nothing, and a reopened session gives the agent the same context", async () => {
		tickingClock();
		const { model, calls } = setup({ contextWindow: 4_000 });
		const storage = createMemorySessionStorage();
		const session = await openSession(storage);
		const agent = new Agent({ session, initialState: { model }, compaction: settings });
		const events = record(agent);
		for (let prompt = 0; prompt < 4; prompt++) await agent.prompt(long(`prompt ${prompt}`));
		assertRunInvariants(events.slice(events.map((event) => event.type).lastIndexOf("agent_start")));

		const entries = await session.entries();
		const [compaction] = compactions(entries);
		expect(compactions(entries)).toHaveLength(1);
		// The entry: the summary, the estimate before, and the first kept message's entry.
		const summary = agent.state.messages[0];
		expect(summary).toMatchObject({ role: "compactionSummary", summary: "## Goal\nSummary 1." });
		expect(compaction).toMatchObject({ summary: "## Goal\nSummary 1.", tokensBefore: (summary as { tokensBefore: number }).tokensBefore });
		const firstKept = entries.find((entry) => entry.id === compaction?.firstKeptEntryId);
		expect(firstKept?.type === "message" && firstKept.message).toBe(agent.state.messages[1]);
		// Nothing deleted: all 8 messages of the 4 runs are still in the log.
		expect(messageEntries(entries)).toHaveLength(8);
		expect(messageEntries(entries).map((entry) => textOf(entry.type === "message" ? entry.message : undefined).split(":")[0])).toEqual([
			"prompt 0", "answer 1", "prompt 1", "answer 2", "prompt 2", "answer 3", "prompt 3", "answer 4",
		]);
		// The session's context is the agent's, exactly (the summary's timestamp included).
		expect((await session.buildContext()).messages).toEqual(agent.state.messages);
		await session.close();

		const reopened = await openSession(storage.reopen());
		expect((await reopened.buildContext()).messages).toEqual(agent.state.messages);
		const resumed = new Agent({ session: reopened, initialState: { model }, compaction: settings });
		expect(resumed.state.messages).toEqual(agent.state.messages);
		// The resumed agent goes on from the summary: the next call starts with it.
		await resumed.prompt("And next?");
		const next = calls.main.at(-1);
		expect(textOf(next?.messages[0])).toContain("<summary>\n## Goal\nSummary 1.\n</summary>");
		expect((await reopened.buildContext()).messages).toEqual(resumed.state.messages);
		await reopened.close();
	});

	it("compacts again and again: the latest compaction entry counts, and every reopen reproduces the context", async () => {
		tickingClock();
		const { model, calls } = setup({ contextWindow: 4_000 });
		const storage = createMemorySessionStorage();
		let session = await openSession(storage);
		let agent = new Agent({ session, initialState: { model }, compaction: settings });
		for (let prompt = 0; prompt < 12; prompt++) {
			await agent.prompt(long(`prompt ${prompt}`));
			if (prompt % 3 === 2) {
				// Close and reopen every third prompt, as a process restart would.
				const before = agent.state.messages;
				await session.close();
				session = await openSession(storage.reopen());
				agent = new Agent({ session, initialState: { model }, compaction: settings });
				expect(agent.state.messages).toEqual(before);
			}
		}
		const entries = await session.entries();
		expect(compactions(entries).length).toBeGreaterThanOrEqual(3);
		expect(calls.summaries.length).toBe(compactions(entries).length);
		expect(messageEntries(entries)).toHaveLength(24);
		expect(agent.state.messages.filter((message) => message.role === "compactionSummary")).toHaveLength(1);
		expect((await session.buildContext()).messages).toEqual(agent.state.messages);
		// Each summary call after the first carried the summary before it.
		for (let index = 1; index < calls.summaries.length; index++) expect(JSON.stringify(calls.summaries[index]?.messages)).toContain("<previous-summary>");
		await session.close();
	});

	it("after an overflow, the compaction entry leaves the overflowing reply on a side branch: still in the log, not in the context", async () => {
		const { model, calls } = setup({
			contextWindow: 200_000,
			answer: (index) => (index === 3 ? fauxAssistantMessage("", { stopReason: "error", errorMessage: "prompt is too long: 213462 tokens > 200000 maximum" }) : fauxAssistantMessage(long(`answer ${index}`))),
		});
		const storage = createMemorySessionStorage();
		const session = await openSession(storage);
		const agent = new Agent({ session, initialState: { model }, compaction: { enabled: true, keepRecentTokens: 600 } });
		for (let prompt = 0; prompt < 3; prompt++) await agent.prompt(long(`prompt ${prompt}`));
		expect(calls.main).toHaveLength(4);
		expect(calls.summaries).toHaveLength(1);

		const entries = await session.entries();
		const failed = messageEntries(entries).find((entry) => entry.type === "message" && entry.message.role === "assistant" && entry.message.stopReason === "error");
		const [compaction] = compactions(entries);
		expect(failed).toBeDefined();
		// Siblings: both under the prompt that overflowed.
		expect(compaction?.parentId).toBe(failed?.parentId);
		expect((await session.path()).some((entry) => entry.id === failed?.id)).toBe(false);
		expect((await session.buildContext()).messages).toEqual(agent.state.messages);
		expect(agent.state.messages.some((message) => message.role === "assistant" && message.stopReason === "error")).toBe(false);
		await session.close();

		const reopened = await openSession(storage.reopen());
		expect((await reopened.buildContext()).messages).toEqual(agent.state.messages);
		expect((await reopened.entries()).some((entry) => entry.id === failed?.id)).toBe(true);
		await reopened.close();
	});

	it("round-trips through a JSONL session file", async () => {
		const dir = mkdtempSync(join(tmpdir(), "pi-compaction-"));
		try {
			const { model } = setup({ contextWindow: 4_000 });
			const path = join(dir, "chat.jsonl");
			const session = await openSessionFile(path);
			const agent = new Agent({ session, initialState: { model }, compaction: settings });
			for (let prompt = 0; prompt < 5; prompt++) await agent.prompt(long(`prompt ${prompt}`));
			expect(agent.state.messages[0]?.role).toBe("compactionSummary");
			const context = agent.state.messages;
			await session.close();

			const reopened = await openSessionFile(path);
			expect(compactions(await reopened.entries()).length).toBeGreaterThanOrEqual(1);
			expect((await reopened.buildContext()).messages).toEqual(context);
			await reopened.close();
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
