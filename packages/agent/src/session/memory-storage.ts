/**
 * A session storage in memory: for tests, browsers and short-lived agents. Entries are kept as
 * JSON text, so what comes back is exactly what a file would give (no shared objects, no
 * `undefined` fields, no values JSON cannot carry).
 */
import { SessionConflictError, SessionLockedError } from "./session-errors.js";
import { newSessionId } from "./session-ids.js";
import type { SessionLog, SessionStorage, SessionStorageLock } from "./session-storage.js";
import type { SessionEntry } from "./session-entry.js";

/** Options of {@link createMemorySessionStorage}. */
export interface MemorySessionStorageOptions {
	/** The session's id. Default: a random UUID. */
	id?: string;
}

/**
 * A {@link SessionStorage} in memory; `reopen()` gives a second instance over the same log.
 * Closing keeps the entries: `openSession` over the same storage (or a `reopen()`) again
 * continues the log.
 */
export interface MemorySessionStorage extends SessionStorage {
	/**
	 * Another storage over the same log, as a second process would see a file: it shares the
	 * entries and the lock (which it must take in its own right).
	 */
	reopen(): MemorySessionStorage;
}

interface SharedLog {
	id: string;
	lines: string[];
	lastId: string | null;
	/** The instance holding the lock, if any. */
	holder: object | undefined;
	holderNumber: number;
}

/**
 * Creates an empty in-memory storage.
 *
 * @example
 * ```ts
 * const session = await openSession(createMemorySessionStorage());
 * ```
 */
export function createMemorySessionStorage(options: MemorySessionStorageOptions = {}): MemorySessionStorage {
	return memoryStorage({ id: options.id ?? newSessionId(), lines: [], lastId: null, holder: undefined, holderNumber: 0 }, { count: 0 });
}

function memoryStorage(log: SharedLog, instances: { count: number }): MemorySessionStorage {
	const self = {};
	const number = ++instances.count;
	const source = `memory session ${log.id}`;

	return {
		async load(): Promise<SessionLog> {
			// A snapshot: appends made while the caller iterates are not part of this read.
			const lines = log.lines.slice();
			return {
				id: log.id,
				repaired: false,
				entries: (async function* () {
					for (const line of lines) yield JSON.parse(line) as SessionEntry;
				})(),
			};
		},
		async append(entries: readonly SessionEntry[], expectedLastId: string | null): Promise<void> {
			if (log.lastId !== expectedLastId) throw new SessionConflictError(source, expectedLastId, log.lastId);
			if (entries.length === 0) return;
			// Serialize all first, so a value JSON cannot carry fails the whole append.
			const lines = entries.map((entry) => JSON.stringify(entry));
			log.lines.push(...lines);
			log.lastId = (entries[entries.length - 1] as SessionEntry).id;
		},
		async lock(): Promise<SessionStorageLock> {
			if (log.holder !== undefined && log.holder !== self) {
				throw new SessionLockedError(source, { description: `memory storage instance ${log.holderNumber}` });
			}
			log.holder = self;
			log.holderNumber = number;
			let released = false;
			return {
				async release() {
					if (released) return;
					released = true;
					if (log.holder === self) log.holder = undefined;
				},
			};
		},
		async close(): Promise<void> {
			// Nothing to free: the log stays, as a file stays on disk, so the storage can be
			// opened again (how a test or a browser simulates a restart).
		},
		reopen(): MemorySessionStorage {
			return memoryStorage(log, instances);
		},
	};
}
