/**
 * The storage conformance suite: the behaviour every `SessionStorage` promises, as vitest
 * tests. Run it on your own storage to check it against the contract.
 */
import { describe, expect, it } from "vitest";
import { openSession } from "../session/session.js";
import type { SessionEntry } from "../session/session-entry.js";
import { SessionConflictError, SessionLockedError } from "../session/session-errors.js";
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
				const user = { role: "user" as const, content: "first", timestamp: 1 };
				const root = await session.appendMessage(user);
				const a = await session.appendMessage({ role: "user", content: "branch a", timestamp: 2 });
				await session.branch(root.id);
				const b = await session.appendMessage({ role: "user", content: "branch b", timestamp: 3 });
				const before = { a: session.buildContext(a.id), b: session.buildContext(b.id) };
				await session.close();

				const reopened = await openSession(await open());
				expect(reopened.id).toBe(session.id);
				expect(reopened.leafId).toBe(b.id);
				expect(reopened.buildContext()).toEqual(before.b);
				await reopened.branch(a.id);
				expect(reopened.buildContext()).toEqual(before.a);
				expect((await reopened.entries()).map((e) => e.id)).toEqual([root.id, a.id, b.id]);
				await reopened.close();
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

		it("rejects calls after close", async () => {
			await withLog(async (open) => {
				const storage = await open();
				await storage.load();
				await storage.close();
				await expect(storage.load()).rejects.toThrow();
				await expect(storage.append([message("a", null)], null)).rejects.toThrow();
			});
		});
	});
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
	const result: T[] = [];
	for await (const item of iterable) result.push(item);
	return result;
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
