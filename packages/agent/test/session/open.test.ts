import { createMemorySessionStorage, openSession, Session, SessionClosedError, type SessionEntry, type SessionEntryInput, SessionCorruptError, SessionLockedError } from "@pi/agent-core";
import { describe, expect, it } from "vitest";
import { rawStorage, texts, user } from "./helpers.js";

const t = 1;
const message = (id: string, parentId: string | null, text = id) => ({ type: "message", id, parentId, timestamp: t, message: { role: "user", content: text, timestamp: t } });

describe("opening a session", () => {
	it("rejects an entry that names an unknown parent, naming the entry", async () => {
		const error = await openSession(rawStorage([message("a", null), message("b", "zzz")])).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(SessionCorruptError);
		expect((error as Error).message).toMatch(/entry 2.*unknown parent zzz/);
	});

	it("rejects a duplicate id and a malformed entry", async () => {
		await expect(openSession(rawStorage([message("a", null), message("a", "a")]))).rejects.toThrow(/duplicate entry id a/);
		await expect(openSession(rawStorage([{ id: "x", parentId: null, timestamp: 1 }]))).rejects.toThrow(/"type"/);
		await expect(openSession(rawStorage([{ type: "message", id: "x", parentId: null, timestamp: 1 }]))).rejects.toThrow(/"message"/);
	});

	it("keeps entries of unknown types (from pi or newer files) and ignores them in the context", async () => {
		const session = await openSession(
			rawStorage([message("a", null), { type: "session_info", id: "i", parentId: "a", timestamp: t, name: "chat" }, message("b", "i")]),
		);
		expect(texts((await session.buildContext()).messages)).toEqual(["a", "b"]);
		expect((await session.entries()).map((e) => e.type)).toEqual(["message", "session_info", "message"]);
		await session.close();
	});

	it("holds only the active path in memory after a branchy log, re-reading the log once when the final path crossed a released entry", async () => {
		// a - b - c, then d under a (c and b released), then e under c (needs b and c again).
		const storage = rawStorage([message("a", null), message("b", "a"), message("c", "b"), message("d", "a"), message("e", "c")]);
		const session = await openSession(storage);
		expect(storage.loads).toBe(2);
		expect(texts((await session.buildContext()).messages)).toEqual(["a", "b", "c", "e"]);
		expect(session.getEntry("d")).toBeUndefined();
		expect(session.hasEntry("d")).toBe(true);
		// Another branch's context is read for the call only; the leaf stays and nothing is kept.
		const loads = storage.loads;
		const yielded = storage.yielded;
		expect(texts((await session.buildContext("d")).messages)).toEqual(["a", "d"]);
		expect(storage.loads).toBe(loads + 1);
		// The read stops at d, the last entry it needs (e, after it, is not read).
		expect(storage.yielded - yielded).toBe(4);
		expect(session.leafId).toBe("e");
		expect(session.getEntry("d")).toBeUndefined();
		await session.branch("d");
		expect(texts((await session.buildContext()).messages)).toEqual(["a", "d"]);
		expect(session.getEntry("d")?.id).toBe("d");
		await session.close();

		const linear = rawStorage([message("a", null), message("b", "a"), message("c", "b")]);
		const reopened = await openSession(linear);
		expect(linear.loads).toBe(1);
		await reopened.close();
	});

	it("refuses a second open while the first holds the lock, and allows it after close", async () => {
		const storage = createMemorySessionStorage();
		const session = await openSession(storage);
		await session.appendMessage(user("hi"));
		await expect(openSession(storage.reopen())).rejects.toBeInstanceOf(SessionLockedError);
		const reader = await openSession(storage.reopen(), { lock: false });
		expect(reader.entryCount).toBe(1);
		await reader.close();
		await session.close();
		const next = await openSession(storage.reopen());
		expect(next.entryCount).toBe(1);
		await next.close();
	});

	it("is opened, never constructed: new Session() from JavaScript throws, naming openSession", () => {
		const construct = Session as unknown as new (...args: unknown[]) => Session;
		const storage = createMemorySessionStorage();
		expect(() => new construct(storage, { id: "x", repaired: false, entries: [] }, undefined)).toThrow(TypeError);
		expect(() => new construct(Symbol("openSession"), storage, { id: "x", repaired: false, entries: [] }, undefined)).toThrow(/openSession\(storage\)/);
		expect(Object.getOwnPropertyNames(Session.prototype)).not.toContain("readLog");
	});

	it("refuses to append a leaf entry: only branch() writes one", async () => {
		const session = await openSession(createMemorySessionStorage());
		await expect(session.append([{ type: "leaf" } as unknown as SessionEntryInput])).rejects.toThrow(/written by session.branch\(\)/);
		expect(session.entryCount).toBe(0);
		await session.close();
	});

	it("writes nothing for a branch() to the current leaf, and queues a branch() in call order with the appends", async () => {
		const storage = createMemorySessionStorage();
		const session = await openSession(storage);
		const first = await session.appendMessage(user("one"));
		await session.branch(first.id);
		expect(session.entryCount).toBe(1);
		await session.appendMessage(user("two"));
		// Not awaited: the append after it still attaches where the branch() moved the leaf.
		void session.branch(first.id);
		const three = await session.appendMessage(user("three"));
		expect(three.parentId).toBe(first.id);
		await session.close();
	});

	it("after close(), answers from memory and refuses to read the storage again, with SessionClosedError", async () => {
		const storage = rawStorage([message("a", null), message("b", "a"), message("c", "a")]);
		const session = await openSession(storage);
		await session.close();
		expect(texts((await session.buildContext()).messages)).toEqual(["a", "c"]);
		const loads = storage.loads;
		await expect(session.buildContext("b")).rejects.toBeInstanceOf(SessionClosedError);
		await expect(session.path("b")).rejects.toThrow(/closed/);
		expect(storage.loads).toBe(loads);
	});

	it("reads another branch only after the appends queued before it, never during one", async () => {
		const storage = rawStorage([message("a", null), message("b", "a"), message("c", "a")]);
		const steps: string[] = [];
		let release: () => void = () => {};
		const gate = new Promise<void>((resolve) => {
			release = resolve;
		});
		const gated = {
			...storage,
			load: async () => {
				steps.push("load");
				return storage.load();
			},
			append: async (entries: readonly SessionEntry[], expectedLastId: string | null) => {
				steps.push("append starts");
				await gate;
				await storage.append(entries, expectedLastId);
				steps.push(`append ends (after ${expectedLastId})`);
			},
		};
		const session = await openSession(gated);
		steps.length = 0;
		const appended = session.appendMessage(user("d"));
		const context = session.buildContext("b");
		await Promise.resolve();
		release();
		expect(texts((await context).messages)).toEqual(["a", "b"]);
		await appended;
		expect(steps).toEqual(["append starts", "append ends (after c)", "load"]);
		await session.close();
	});
});
