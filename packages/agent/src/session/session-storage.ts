/**
 * The storage interface under a `Session`. A storage holds one session's log: an id and the
 * entries in the order they were appended. It knows nothing about branches or messages: the
 * `Session` keeps the tree, the storage keeps the lines (or rows).
 *
 * Check a storage of your own with the conformance suite of `@pi/agent-core/testing`.
 */
import type { SessionEntry } from "./session-entry.js";

/** What {@link SessionStorage.load} gives: the session's id and its entries, streamed in log order. */
export interface SessionLog {
	/** The session's id (a new log gets a fresh one, or the one its storage was given). */
	id: string;
	/**
	 * True when the storage dropped a torn or unreadable tail to open the log (a crash in the
	 * middle of a write). Corruption anywhere else rejects with `SessionCorruptError` instead.
	 */
	repaired: boolean;
	/**
	 * Every entry in log order. Iterate it once; it may read lazily (a file is streamed), and may
	 * reject with `SessionCorruptError` naming where the log is broken.
	 */
	entries: AsyncIterable<SessionEntry>;
}

/** A held writer lock; `release` is idempotent. */
export interface SessionStorageLock {
	release(): Promise<void>;
}

/**
 * One session's durable log.
 *
 * Contract:
 * - `load()` may be called more than once (a session re-reads old branches); each call sees
 *   every entry appended so far. The first load of a new log creates it.
 * - `append(entries, expectedLastId)` adds all `entries` after the log's current last entry,
 *   in order, as one unit: after a crash either all of them are in the log or none is (a torn
 *   tail is what `load` repairs). It rejects with `SessionConflictError`, appending nothing,
 *   unless the log's last entry is `expectedLastId` (`null`: the log is empty): a second writer
 *   that bypassed the lock never forks the log. It resolves once the entries are as durable as
 *   the storage promises.
 * - `lock()` takes the log's single-writer lock, or rejects at once with `SessionLockedError`
 *   naming the holder when someone else (another process, another storage instance) holds it.
 *   A lock whose holder died is taken over. A DB storage can implement it with an advisory lock.
 * - `close()` frees the storage's resources (it does not release a held lock: the lock's own
 *   `release` does). It keeps the log, and the storage can be opened again: a later `lock()`,
 *   `load()` or `append()` takes what it needs again, as a new instance over the same log
 *   would. `Session.close()` closes its storage, so `openSession(storage)` after it works.
 */
export interface SessionStorage {
	load(): Promise<SessionLog>;
	append(entries: readonly SessionEntry[], expectedLastId: string | null): Promise<void>;
	lock(): Promise<SessionStorageLock>;
	close(): Promise<void>;
}
