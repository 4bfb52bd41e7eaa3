import { createMemorySessionStorage, defaultConvertToLlm, openSession } from "@pi/agent-core";
import { describe, expect, it } from "vitest";
import { assistant, texts, user } from "./helpers.js";

describe("buildContext after a compaction entry", () => {
	it("gives the summary, then the kept messages, then what came after; the log keeps everything", async () => {
		const session = await openSession(createMemorySessionStorage());
		await session.appendMessage(user("one"));
		await session.appendMessage(assistant("two"));
		const kept = await session.appendMessage(user("three"));
		await session.appendMessage(assistant("four"));
		const compaction = await session.append([{ type: "compaction", summary: "They said one and two.", firstKeptEntryId: kept.id, tokensBefore: 900 }]);
		await session.appendMessage(user("five"));

		const context = (await session.buildContext());
		expect(texts(context.messages)).toEqual(["summary:They said one and two.", "three", "four", "five"]);
		expect(context.messages[0]).toEqual({ role: "compactionSummary", summary: "They said one and two.", tokensBefore: 900, timestamp: compaction[0]?.timestamp });
		expect((await session.entries()).length).toBe(6);

		// The default convertToLlm tells the model it is a summary.
		const [first] = defaultConvertToLlm(context.messages);
		expect(first?.role).toBe("user");
		expect(first?.content).toContain("They said one and two.");
		expect(first?.content).toContain("summary");
		await session.close();
	});

	it("uses only the latest compaction on the path, and a reopened session rebuilds the same context", async () => {
		const storage = createMemorySessionStorage();
		const session = await openSession(storage);
		await session.appendMessage(user("a"));
		const b = await session.appendMessage(user("b"));
		await session.append([{ type: "compaction", summary: "S1", firstKeptEntryId: b.id, tokensBefore: 10 }]);
		await session.appendMessage(user("c"));
		const d = await session.appendMessage(user("d"));
		await session.append([{ type: "compaction", summary: "S2", firstKeptEntryId: d.id, tokensBefore: 20 }]);
		await session.appendMessage(user("e"));
		const context = (await session.buildContext());
		expect(texts(context.messages)).toEqual(["summary:S2", "d", "e"]);
		await session.close();

		const reopened = await openSession(storage.reopen());
		expect(await reopened.buildContext()).toEqual(context);
		await reopened.close();
	});

	it("keeps only what follows the compaction when its firstKeptEntryId is not on the path", async () => {
		const session = await openSession(createMemorySessionStorage());
		await session.appendMessage(user("a"));
		await session.append([{ type: "compaction", summary: "S", firstKeptEntryId: "elsewhere", tokensBefore: 5 }]);
		await session.appendMessage(user("b"));
		expect(texts((await session.buildContext()).messages)).toEqual(["summary:S", "b"]);
		await session.close();
	});

	it("a branch from before the compaction does not see it", async () => {
		const session = await openSession(createMemorySessionStorage());
		const a = await session.appendMessage(user("a"));
		await session.appendMessage(user("b"));
		await session.append([{ type: "compaction", summary: "S", firstKeptEntryId: a.id, tokensBefore: 5 }]);
		await session.branch(a.id);
		await session.appendMessage(user("c"));
		expect(texts((await session.buildContext()).messages)).toEqual(["a", "c"]);
		await session.close();
	});
});
