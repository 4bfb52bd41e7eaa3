/**
 * The storage conformance suite: the behaviour every `SessionStorage` promises, as vitest
 * tests. Run it on your own storage to check it against the contract: ids, log order, all-or-
 * nothing appends and their conflict check, the lock, a storage opened again after `close()`,
 * and what a `Session` over it promises (`buildContext` and `path` of every branch after a
 * reopen without moving the leaf, the leaf a `branch()` left surviving a reopen).
 */
import { describe, expect, it } from "vitest";
import { openSession } from "../session/session.js";
import type { SessionEntry } from "../session/session-entry.js";
import { SessionClosedError, SessionConflictError, SessionLockedError } from "../session/session-errors.js";
import type { SessionStorage } from "../session/session-storage.js";

/** One fresh, empty log of the storage under test. */
export interface ConformanceLog {
	/**
	 * A new storage instance over this log, as another process would open it. Called several
	 * times per test; each instance is closed by the test.
	 */
	open(): SessionStorage | Promise<SessionStorage>;
	/** Removes the log (files, rows) after the test. */
	cleanup?(): Promise<void>;
}

/** What the suite needs of a storage: a way to make fresh logs. */
export interface SessionStorageConformanceOptions {
	/** A fresh, empty log for one test. */
	createLog(): ConformanceLog | Promise<ConformanceLog>;
}

/**
 * Registers the conformance tests (in a `describe` named `name`) for a storage.
 *
 * @example
 * ```ts
 * // test/my-storage.test.ts
 * import { sessionStorageConformance } from "@pi/agent-core/testing";
 * sessionStorageConformance("my storage", { createLog: () => ({ open: () => createMyStorage(url, "s1") }) });
 * ```
 */
export function sessionStorageConformance(name: string, options: SessionStorageConformanceOptions): void {
	describe(`SessionStorage conformance: ${name}`, () => {
		/** Runs `body` with a fresh log, closing every storage it opened and cleaning up. */
		const withLog = async (body: (open: () => Promise<SessionStorage>) => Promise<void>) => {
			const log = await options.createLog();
			const opened: SessionStorage[] = [];
			const open = async () => {
				const storage = await log.open();
				opened.push(storage);
				return storage;
			};
			try {
				await body(open);
			} finally {
				for (const storage of opened) await storage.close().catch(() => {});
				await log.cleanup?.();
			}
		};

		it("a new log loads with an id, no entries and no repair", async () => {
			await withLog(async (open) => {
				const log = await (await open()).load();
				expect(typeof log.id).toBe("string");
				expect(log.id.length).toBeGreaterThan(0);
				expect(log.repaired).toBe(false);
				expect(await collect(log.entries)).toEqual([]);
			});
		});

		it("keeps the same id across instances", async () => {
			await withLog(async (open) => {
				const first = await (await open()).load();
				const second = await (await open()).load();
				expect(second.id).toBe(first.id);
			});
		});

		it("gives back appended entries in log order, to a second instance too", async () => {
			await withLog(async (open) => {
				const storage = await open();
				await storage.load();
				const entries = chain(5);
				await storage.append(entries.slice(0, 2), null);
				await storage.append(entries.slice(2, 3), "e1");
				await storage.append(entries.slice(3), "e2");
				expect(await collect((await storage.load()).entries)).toEqual(entries);
				expect(await collect((await (await open()).load()).entries)).toEqual(entries);
			});
		});

		it("round-trips every entry type and any JSON a message holds", async () => {
			await withLog(async (open) => {
				const storage = await open();
				await storage.load();
				const entries = everyEntryType();
				await storage.append(entries, null);
				expect(await collect((await (await open()).load()).entries)).toEqual(entries);
			});
		});

		it("round-trips a large entry (1 MB of text)", async () => {
			await withLog(async (open) => {
				const storage = await open();
				await storage.load();
				const big = message("big", null, "x".repeat(1_000_000));
				await storage.append([big], null);
				expect(await collect((await (await open()).load()).entries)).toEqual([big]);
			});
		});

		it("rejects an append that expects another end of the log, with SessionConflictError, and appends nothing", async () => {
			await withLog(async (open) => {
				const storage = await open();
				await storage.load();
				const entries = chain(3);
				await storage.append(entries.slice(0, 2), null);
				await expect(storage.append([message("x", "e1")], null)).rejects.toBeInstanceOf(SessionConflictError);
				await expect(storage.append([message("y", "e0")], "e0")).rejects.toBeInstanceOf(SessionConflictError);
				await storage.append(entries.slice(2), "e1");
				expect(await collect((await (await open()).load()).entries)).toEqual(entries);
			});
		});

		it("refuses a stale second writer with SessionConflictError: the log never forks", async () => {
			await withLog(async (open) => {
				const first = await open();
				const second = await open();
				await first.load();
				await second.load();
				await first.append([message("a", null)], null);
				await expect(second.append([message("b", null)], null)).rejects.toBeInstanceOf(SessionConflictError);
				await second.append([message("b", "a")], "a");
				expect((await collect((await (await open()).load()).entries)).map((e) => e.id)).toEqual(["a", "b"]);
			});
		});

		it("treats an empty append as a no-op", async () => {
			await withLog(async (open) => {
				const storage = await open();
				await storage.load();
				await storage.append([message("a", null)], null);
				await storage.append([], "a");
				await storage.append([message("b", "a")], "a");
				expect((await collect((await storage.load()).entries)).map((e) => e.id)).toEqual(["a", "b"]);
			});
		});

		it("lets one instance hold the lock: a second is refused with SessionLockedError until release", async () => {
			await withLog(async (open) => {
				const first = await open();
				const second = await open();
				const lock = await first.lock();
				const refused = await second.lock().then(
					() => undefined,
					(error: unknown) => error,
				);
				expect(refused).toBeInstanceOf(SessionLockedError);
				expect((refused as SessionLockedError).holder.description.length).toBeGreaterThan(0);
				await lock.release();
				await lock.release();
				const again = await second.lock();
				await expect(first.lock()).rejects.toBeInstanceOf(SessionLockedError);
				await again.release();
			});
		});

		it("serves openSession: branches, reopen and buildContext agree", async () => {
			await withLog(async (open) => {
				const session = await openSession(await open());
				const root = await session.appendMessage(user("first", 1));
				const a = await session.appendMessage(user("branch a", 2));
				await session.branch(root.id);
				const b = await session.appendMessage(user("branch b", 3));
				const before = { a: await session.buildContext(a.id), b: await session.buildContext(b.id) };
				await session.close();

				const reopened = await openSession(await open());
				expect(reopened.id).toBe(session.id);
				expect(reopened.leafId).toBe(b.id);
				expect(await reopened.buildContext()).toEqual(before.b);
				await reopened.branch(a.id);
				expect(await reopened.buildContext()).toEqual(before.a);
				expect((await reopened.entries()).filter((e) => e.type === "message").map((e) => e.id)).toEqual([root.id, a.id, b.id]);
				await reopened.close();
			});
		});

		it("buildContext(id) and path(id) give any entry's branch after a reopen, as a promise, and never move the leaf", async () => {
			await withLog(async (open) => {
				const session = await openSession(await open());
				await session.append([{ type: "model_change", provider: "openai", modelId: "gpt-6-luna" }]);
				const root = await session.appendMessage(user("root", 1));
				// Five branches from the root, three messages each; the last one stays the active path.
				const tips: string[] = [];
				for (let branch = 0; branch < 5; branch++) {
					await session.branch(root.id);
					if (branch === 2) await session.append([{ type: "thinking_level_change", thinkingLevel: "high" }]);
					let tip = "";
					for (let step = 0; step < 3; step++) tip = (await session.appendMessage(user(`branch ${branch} step ${step}`, 10 * branch + step))).id;
					tips.push(tip);
				}
				const expected = await Promise.all(tips.map((tip) => session.buildContext(tip)));
				const paths = await Promise.all(tips.map((tip) => session.path(tip)));
				await session.close();

				const reopened = await openSession(await open());
				const leaf = reopened.leafId;
				expect(leaf).toBe(tips[4]);
				for (const [index, tip] of tips.entries()) {
					const pending = reopened.buildContext(tip);
					expect(pending).toBeInstanceOf(Promise);
					expect(await pending).toEqual(expected[index]);
					expect(await reopened.path(tip)).toEqual(paths[index]);
					expect(reopened.leafId).toBe(leaf);
				}
				expect((await reopened.buildContext(tips[2])).thinkingLevel).toBe("high");
				expect((await reopened.buildContext(tips[1])).thinkingLevel).toBeUndefined();
				expect((await reopened.buildContext(tips[0])).model).toEqual({ provider: "openai", modelId: "gpt-6-luna" });
				// A context in the middle of an old branch, and of the root.
				const middle = (paths[0] as SessionEntry[]).find((entry) => entry.type === "message" && textOf(entry.message) === "branch 0 step 0") as SessionEntry;
				expect((await reopened.buildContext(middle.id)).messages.map(textOf)).toEqual(["root", "branch 0 step 0"]);
				expect((await reopened.buildContext(root.id)).messages.map(textOf)).toEqual(["root"]);
				expect(await reopened.buildContext(null)).toEqual({ messages: [], model: undefined, thinkingLevel: undefined, systemPrompt: undefined });
				expect(reopened.buildContext()).toBeInstanceOf(Promise);
				await expect(reopened.buildContext("no-such-entry")).rejects.toThrow(/no entry no-such-entry/);
				// The next append still continues the active path.
				const next = await reopened.appendMessage(user("after", 99));
				expect(next.parentId).toBe(tips[4]);
				await reopened.close();
			});
		});

		it("keeps the leaf across a reopen: a branch() with nothing appended after it survives", async () => {
			await withLog(async (open) => {
				const session = await openSession(await open());
				const first = await session.appendMessage(user("one", 1));
				const second = await session.appendMessage(user("two", 2));
				await session.appendMessage(user("three", 3));
				await session.branch(second.id);
				await session.close();

				const reopened = await openSession(await open());
				expect(reopened.leafId).toBe(second.id);
				expect((await reopened.buildContext()).messages.map(textOf)).toEqual(["one", "two"]);
				await reopened.branch(first.id);
				await reopened.close();

				const again = await openSession(await open());
				expect(again.leafId).toBe(first.id);
				const reply = await again.appendMessage(user("one, again", 4));
				expect(reply.parentId).toBe(first.id);
				await again.branch(null);
				await again.close();

				const empty = await openSession(await open());
				expect(empty.leafId).toBeNull();
				expect((await empty.buildContext()).messages).toEqual([]);
				expect((await empty.buildContext(reply.id)).messages.map(textOf)).toEqual(["one", "one, again"]);
				const root = await empty.appendMessage(user("a new root", 5));
				expect(root.parentId).toBeNull();
				await empty.close();

				const last = await openSession(await open());
				expect(last.leafId).toBe(root.id);
				await last.close();
			});
		});

		it("keeps a reopened session locked against another openSession", async () => {
			await withLog(async (open) => {
				const session = await openSession(await open());
				await expect(openSession(await open())).rejects.toBeInstanceOf(SessionLockedError);
				await session.close();
				const next = await openSession(await open());
				await next.close();
			});
		});

		it("opens the same storage again after its session was closed: closing releases the session, the log stays", async () => {
			await withLog(async (open) => {
				const storage = await open();
				const session = await openSession(storage);
				const first = await session.appendMessage(user("before the restart", 1));
				await session.close();
				await expect(session.appendMessage(user("late", 2))).rejects.toBeInstanceOf(SessionClosedError);

				const again = await openSession(storage);
				expect(again.id).toBe(session.id);
				expect(again.leafId).toBe(first.id);
				const second = await again.appendMessage(user("after the restart", 2));
				// Still one writer at a time: the lock was taken again.
				await expect(openSession(await open())).rejects.toBeInstanceOf(SessionLockedError);
				await again.close();

				const third = await openSession(storage);
				expect((await third.buildContext()).messages.map(textOf)).toEqual(["before the restart", "after the restart"]);
				expect(third.leafId).toBe(second.id);
				await third.close();
				expect((await collect((await (await open()).load()).entries)).map((e) => e.id)).toEqual([first.id, second.id]);
			});
		});

		it("serves a storage again after close(): load, append and lock work as on a new instance", async () => {
			await withLog(async (open) => {
				const storage = await open();
				await storage.load();
				await storage.append([message("a", null)], null);
				await storage.close();
				expect((await collect((await storage.load()).entries)).map((e) => e.id)).toEqual(["a"]);
				await storage.append([message("b", "a")], "a");
				await storage.close();
				const lock = await storage.lock();
				await lock.release();
				expect((await collect((await (await open()).load()).entries)).map((e) => e.id)).toEqual(["a", "b"]);
			});
		});
	});
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
	const result: T[] = [];
	for await (const item of iterable) result.push(item);
	return result;
}

function user(content: string, timestamp: number) {
	return { role: "user" as const, content, timestamp };
}

function textOf(message: unknown): unknown {
	return (message as { content?: unknown }).content;
}

function message(id: string, parentId: string | null, text = `text of ${id}`): SessionEntry {
	return { type: "message", id, parentId, timestamp: 1_700_000_000_000, message: { role: "user", content: text, timestamp: 1_700_000_000_000 } };
}

/** `count` message entries e0, e1, … each under the one before. */
function chain(count: number): SessionEntry[] {
	return Array.from({ length: count }, (_, index) => message(`e${index}`, index === 0 ? null : `e${index - 1}`));
}

function everyEntryType(): SessionEntry[] {
	const t = 1_700_000_000_000;
	return [
		{ type: "system_prompt_change", id: "s", parentId: null, timestamp: t, systemPrompt: "Be brief.\nReally." },
		{ type: "model_change", id: "m", parentId: "s", timestamp: t, provider: "openai", modelId: "gpt-6-luna" },
		{ type: "thinking_level_change", id: "t", parentId: "m", timestamp: t, thinkingLevel: "high" },
		{
			type: "message",
			id: "u",
			parentId: "t",
			timestamp: t,
			idempotencyKey: "job-1",
			metadata: { source: "worker", attempt: 2 },
			message: { role: "user", content: [{ type: "text", text: "héllo \u2028 \"quoted\" \\ 🚀" }, { type: "image", data: "aGk=", mimeType: "image/png" }], timestamp: t },
		},
		{
			type: "message",
			id: "a",
			parentId: "u",
			timestamp: t,
			message: {
				role: "assistant",
				content: [
					{ type: "thinking", thinking: "hmm", thinkingSignature: "sig" },
					{ type: "toolCall", id: "call_1", name: "lookup", arguments: { query: "x", nested: { list: [1, 2.5, null, true] } } },
				],
				api: "openai-responses",
				provider: "openai",
				model: "gpt-6-luna",
				usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { input: 0.1, output: 0.2, cacheRead: 0, cacheWrite: 0, total: 0.3 } },
				stopReason: "toolUse",
				timestamp: t,
			},
		},
		{
			type: "message",
			id: "r",
			parentId: "a",
			timestamp: t,
			message: { role: "toolResult", toolCallId: "call_1", toolName: "lookup", content: [{ type: "text", text: "found" }], isError: false, timestamp: t },
		},
		{ type: "label", id: "l", parentId: "r", timestamp: t, targetId: "u", label: "start" },
		{ type: "custom", id: "c", parentId: "l", timestamp: t, customType: "ui", data: { folded: [1, 2], note: "ok" } },
		{ type: "compaction", id: "k", parentId: "c", timestamp: t, summary: "Earlier: greeting.", firstKeptEntryId: "a", tokensBefore: 1234 },
		{
			type: "message",
			id: "x",
			parentId: "k",
			timestamp: t,
			// A custom app message: the storage must keep any JSON, whatever its role.
			message: { role: "notification", text: "saved", level: 3, timestamp: t } as never,
		},
	];
}
