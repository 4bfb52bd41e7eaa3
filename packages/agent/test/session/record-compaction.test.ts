import { createMemorySessionStorage, openSession } from "@pi/agent-core";
import { describe, expect, it } from "vitest";
import { SessionRecorder } from "../../src/agent/session-recorder.js";
import { createCompactionSummaryMessage } from "../../src/index.js";
import { assistant, texts, user } from "./helpers.js";

describe("recording a compaction (the extension point for the Agent's compaction_end)", () => {
	it("appends a compaction entry naming the first kept message; later messages follow it, and a reopen rebuilds the compacted context", async () => {
		const storage = createMemorySessionStorage();
		const session = await openSession(storage);
		const recorder = new SessionRecorder(session, { model: undefined, thinkingLevel: "off", systemPrompt: "" });
		const before = [user("one"), assistant("two"), user("three"), assistant("four")];
		await recorder.persist(before);

		const id = await recorder.recordCompaction({ summary: "One and two were said.", firstKept: before[2], tokensBefore: 5000 }, before);
		const entry = session.getEntry(id);
		expect(entry).toMatchObject({ type: "compaction", summary: "One and two were said.", tokensBefore: 5000 });
		expect(session.getEntry((entry as { firstKeptEntryId: string }).firstKeptEntryId)).toMatchObject({ type: "message", message: before[2] });

		// The agent's transcript after the compaction: the summary, then the kept messages, then more.
		const summary = entry as { summary: string; tokensBefore: number; timestamp: number };
		const after = [createCompactionSummaryMessage(summary.summary, summary.tokensBefore, summary.timestamp), ...before.slice(2), user("five")];
		await recorder.persist(after);
		expect((await session.path()).map((e) => e.type)).toEqual(["message", "message", "message", "message", "compaction", "message"]);
		await session.close();

		const reopened = await openSession(storage.reopen());
		expect(texts((await reopened.buildContext()).messages)).toEqual(["summary:One and two were said.", "three", "four", "five"]);
		await reopened.close();
	});
});
