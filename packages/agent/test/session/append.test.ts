import { createMemorySessionStorage, openSession, type SessionEntry, SessionConflictError } from "@pi/agent-core";
import { describe, expect, it } from "vitest";
import { assistant, texts, user } from "./helpers.js";

describe("appending", () => {
	it("entries get an id, the leaf as parent and a timestamp; several at once chain in order", async () => {
		const session = await openSession(createMemorySessionStorage());
		const first = await session.appendMessage(user("hi"));
		expect(first).toMatchObject({ type: "message", parentId: null, message: { role: "user", content: "hi" } });
		expect(typeof first.id).toBe("string");
		expect(typeof first.timestamp).toBe("number");
		const [a, b, c] = await session.append([
			{ type: "thinking_level_change", thinkingLevel: "low" },
			{ type: "custom", customType: "ui", data: { x: 1 } },
			{ type: "message", message: user("after") },
		]);
		expect([a?.parentId, b?.parentId, c?.parentId]).toEqual([first.id, a?.id, b?.id]);
		expect(session.leafId).toBe(c?.id);
		expect(session.entryCount).toBe(4);
		await session.close();
	});

	it("concurrent appends are serialized in call order and all chain", async () => {
		const session = await openSession(createMemorySessionStorage());
		const entries = await Promise.all(Array.from({ length: 20 }, (_, i) => session.appendMessage(user(`m${i}`))));
		for (let i = 1; i < entries.length; i++) expect(entries[i]?.parentId).toBe(entries[i - 1]?.id);
		expect(texts((await session.buildContext()).messages)).toEqual(entries.map((_, i) => `m${i}`));
		await session.close();
	});

	it("a rejected append changes nothing: the leaf stays and the next append works", async () => {
		const storage = createMemorySessionStorage();
		const session = await openSession(storage);
		const first = await session.appendMessage(user("one"));
		// A second writer bypassing the lock appends behind the session's back.
		const intruder = storage.reopen();
		await intruder.append([{ type: "message", id: "intruder", parentId: first.id, timestamp: 1, message: user("x") } as SessionEntry], first.id);
		await expect(session.appendMessage(user("two"))).rejects.toBeInstanceOf(SessionConflictError);
		expect(session.leafId).toBe(first.id);
		expect(session.entryCount).toBe(1);
		await session.close();
	});

	it("an entry JSON cannot carry is refused whole", async () => {
		const session = await openSession(createMemorySessionStorage());
		const cyclic: Record<string, unknown> = {};
		cyclic.self = cyclic;
		await expect(
			session.append([
				{ type: "message", message: user("fine") },
				{ type: "custom", customType: "bad", data: cyclic },
			]),
		).rejects.toThrow();
		expect(session.entryCount).toBe(0);
		expect(session.leafId).toBeNull();
		await session.close();
	});

	it("malformed input is refused with an error naming the field", async () => {
		const session = await openSession(createMemorySessionStorage());
		await expect(session.append([{ type: "model_change", provider: "openai" } as never])).rejects.toThrow(/modelId/);
		await expect(session.appendMessage({ content: "no role" } as never)).rejects.toThrow(/role/);
		await expect(session.appendMessage(user("x"), { parentId: "missing" })).rejects.toThrow(/no entry missing/);
		await session.close();
	});

	it("an idempotency key makes the append happen once, also after a reopen", async () => {
		const storage = createMemorySessionStorage();
		const session = await openSession(storage);
		const first = await session.appendMessage(user("run the job"), { idempotencyKey: "job-7", metadata: { attempt: 1 } });
		const again = await session.appendMessage(user("run the job"), { idempotencyKey: "job-7", metadata: { attempt: 2 } });
		expect(again.id).toBe(first.id);
		expect(session.entryCount).toBe(1);
		expect(session.findByIdempotencyKey("job-7")).toBe(first.id);
		await session.appendMessage(assistant("done"));
		await session.close();

		const reopened = await openSession(storage.reopen());
		expect(reopened.findByIdempotencyKey("job-7")).toBe(first.id);
		expect(reopened.getEntry(first.id)).toMatchObject({ idempotencyKey: "job-7", metadata: { attempt: 1 } });
		const third = await reopened.appendMessage(user("run the job"), { idempotencyKey: "job-7" });
		expect(third.id).toBe(first.id);
		expect(reopened.entryCount).toBe(2);
		expect(reopened.findByIdempotencyKey("job-8")).toBeUndefined();
		await reopened.close();
	});

	it("replaceMessage appends a sibling that takes the old message's place on the active path; the old one stays in the log", async () => {
		const storage = createMemorySessionStorage();
		const session = await openSession(storage);
		await session.appendMessage(user("question"));
		const placeholder = await session.appendMessage(assistant("(deferred)"));
		const final = await session.replaceMessage(placeholder.id, assistant("the answer"));
		expect(final.parentId).toBe(placeholder.parentId);
		expect(final.replaces).toBe(placeholder.id);
		expect(session.leafId).toBe(final.id);
		expect(texts((await session.buildContext()).messages)).toEqual(["question", "the answer"]);
		expect((await session.entries()).map((e) => e.id)).toContain(placeholder.id);
		await session.close();

		const reopened = await openSession(storage.reopen());
		expect(texts((await reopened.buildContext()).messages)).toEqual(["question", "the answer"]);
		await reopened.close();
	});

	it("labels name entries; the latest label wins and undefined removes it", async () => {
		const storage = createMemorySessionStorage();
		const session = await openSession(storage);
		const entry = await session.appendMessage(user("hi"));
		await session.setLabel(entry.id, "start");
		expect(session.getLabel(entry.id)).toBe("start");
		await session.setLabel(entry.id, "beginning");
		await session.close();
		const reopened = await openSession(storage.reopen());
		expect(reopened.getLabel(entry.id)).toBe("beginning");
		await reopened.setLabel(entry.id, undefined);
		expect(reopened.getLabel(entry.id)).toBeUndefined();
		await expect(reopened.setLabel("nope", "x")).rejects.toThrow(/no entry nope/);
		// Labels are not messages.
		expect(texts((await reopened.buildContext()).messages)).toEqual(["hi"]);
		await reopened.close();
	});

	it("custom app messages survive a round trip", async () => {
		const storage = createMemorySessionStorage();
		const session = await openSession(storage);
		const notice = { role: "notification", text: "saved", level: 2, timestamp: 5 } as never;
		await session.appendMessage(notice);
		await session.close();
		const reopened = await openSession(storage.reopen());
		expect((await reopened.buildContext()).messages).toEqual([{ role: "notification", text: "saved", level: 2, timestamp: 5 }]);
		await reopened.close();
	});

	it("close() waits for appends in flight; using the session afterwards throws", async () => {
		const storage = createMemorySessionStorage();
		const session = await openSession(storage);
		const pending = session.appendMessage(user("last"));
		await session.close();
		await pending;
		await session.close();
		expect(session.isClosed).toBe(true);
		await expect(session.appendMessage(user("late"))).rejects.toThrow(/closed/);
		const reopened = await openSession(storage.reopen());
		expect(reopened.entryCount).toBe(1);
		await reopened.close();
	});
});
