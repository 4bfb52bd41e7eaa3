/**
 * A session: the tree of entries of one append-only log, the leaf where the next entry
 * attaches, and the context an agent resumes from. The storage keeps the log; the session's
 * tree (`session-tree.ts`) keeps the entries' contents for the active path only, and its
 * append queue (`append-queue.ts`) writes one append at a time.
 */
import type { AgentMessage } from "../types.js";
import { AppendQueue } from "./append-queue.js";
import { buildSessionContext } from "./build-context.js";
import { entryShapeProblem } from "./check-entry.js";
import type { SessionContext, SessionEntry, SessionEntryInput, SessionMessageEntry } from "./session-entry.js";
import { SessionClosedError, SessionError } from "./session-errors.js";
import { newEntryId } from "./session-ids.js";
import type { SessionLog, SessionStorage, SessionStorageLock } from "./session-storage.js";
import { SessionTree } from "./session-tree.js";

/** Options of {@link openSession}. */
export interface OpenSessionOptions {
	/**
	 * Take the storage's single-writer lock for as long as the session is open. Default `true`;
	 * `false` opens for reading (appends, and `branch()`, which writes a `leaf` entry, still
	 * work, but nothing stops a second writer except the storage's conflict check).
	 */
	lock?: boolean;
}

/** Options of {@link Session.appendMessage}. */
export interface AppendMessageOptions {
	/**
	 * Attach the message under this entry instead of the leaf (`null`: as a new root). The leaf
	 * then moves to the new entry.
	 */
	parentId?: string | null;
	/**
	 * Makes the append idempotent: when a message with this key is already in the log, nothing
	 * is appended and the existing entry is returned.
	 */
	idempotencyKey?: string;
	/** The app's JSON data about the entry, kept with it (never sent to the model). */
	metadata?: Record<string, unknown>;
	/** Records that this message replaces that entry (see {@link Session.replaceMessage}). */
	replaces?: string;
}

/** Options of {@link Session.append}. */
export interface AppendOptions {
	/** Attach the first entry under this entry instead of the leaf (`null`: as a new root). */
	parentId?: string | null;
}

/** Proves a construction comes from {@link openSession}: the constructor is not public API. */
const OPEN = Symbol("openSession");

/** Builds a session over an opened storage; set by the class itself, so only this module can. */
let construct: (storage: SessionStorage, log: SessionLog, lock: SessionStorageLock | undefined) => Promise<Session>;

/**
 * Opens the session kept by `storage`: takes its lock (unless `lock: false`), streams its log,
 * checks that every entry is well-formed and names a known parent, and puts the leaf where the
 * log left it (its last entry, or where the last `branch()` moved it). Rejects with
 * `SessionLockedError` when another writer holds the lock and with `SessionCorruptError` when
 * the log is broken (a torn last line is repaired by the storage instead, and
 * `session.repaired` says so). A storage whose session was closed can be opened again.
 *
 * @example
 * ```ts
 * const session = await openSession(createMemorySessionStorage());
 * await session.appendMessage({ role: "user", content: "Hello", timestamp: Date.now() });
 * (await session.buildContext()).messages.length; // 1
 * await session.close();
 * ```
 */
export async function openSession(storage: SessionStorage, options: OpenSessionOptions = {}): Promise<Session> {
	const lock = options.lock === false ? undefined : await storage.lock();
	try {
		return await construct(storage, await storage.load(), lock);
	} catch (error) {
		await lock?.release().catch(() => {});
		await storage.close().catch(() => {});
		throw error;
	}
}

/**
 * One conversation's log as a tree. Create it with {@link openSession} (or `openSessionFile`
 * from `@pi/agent-core/node`): the constructor is private, because opening takes the lock and
 * checks the log. Appends are serialized: each one waits for the ones before it, and the leaf
 * moves only once the storage has accepted the entries.
 */
export class Session {
	/** The session's id, from its storage. */
	readonly id: string;
	/** True when opening dropped a torn or unreadable last line of the log. */
	readonly repaired: boolean;

	private readonly tree: SessionTree;
	private readonly queue = new AppendQueue();
	private leaf: string | null = null;
	private closed: Promise<void> | undefined;

	static {
		construct = async (storage, log, lock) => {
			const session = new Session(OPEN, storage, log, lock);
			await session.tree.read(log);
			session.leaf = session.tree.leafAtEnd();
			return session;
		};
	}

	private constructor(
		token: symbol,
		private readonly storage: SessionStorage,
		log: SessionLog,
		private readonly lock: SessionStorageLock | undefined,
	) {
		// A JavaScript caller can reach a private constructor; it would skip the lock and the checks.
		if (token !== OPEN) throw new TypeError("Session: open a session with openSession(storage) (or openSessionFile(path) from @pi/agent-core/node), not new Session()");
		this.id = log.id;
		this.repaired = log.repaired;
		this.tree = new SessionTree(log.id, () => {
			if (this.closed) return Promise.reject(new SessionClosedError(`Session ${this.id} is closed: the entries asked for are not in memory, and its storage is not read after close()`));
			return this.storage.load();
		});
	}

	/** The entry the next append attaches to; `null` before the first entry (or after `branch(null)`). */
	get leafId(): string | null {
		return this.leaf;
	}

	/** How many entries the log holds (`leaf` entries written by `branch()` included). */
	get entryCount(): number {
		return this.tree.size;
	}

	/** True once `close()` was called. */
	get isClosed(): boolean {
		return this.closed !== undefined;
	}

	/**
	 * Every entry in log order (append order, across all branches). Entries of other branches
	 * are re-read from the storage, so this costs a read of the whole log after a reopen.
	 */
	async entries(): Promise<SessionEntry[]> {
		this.assertOpen();
		return this.tree.complete ? this.tree.entries() : this.afterAppends(() => this.tree.entries());
	}

	/**
	 * The entry with this id if it is in memory, else `undefined`. Every entry of the active
	 * path (root to leaf) is; `await session.path(id)` gives the entries of any branch.
	 */
	getEntry(id: string): SessionEntry | undefined {
		return this.tree.loaded(id);
	}

	/** True when the log has an entry with this id. */
	hasEntry(id: string): boolean {
		return this.tree.has(id);
	}

	/** The id of the entry's parent (`null` for a root), or `undefined` for an unknown id. */
	parentOf(id: string): string | null | undefined {
		return this.tree.parentOf(id);
	}

	/** The latest label of an entry (from `label` entries), if any. */
	getLabel(id: string): string | undefined {
		return this.tree.label(id);
	}

	/** The id of the message entry appended with this idempotency key, if any. */
	findByIdempotencyKey(key: string): string | undefined {
		return this.tree.idempotencyKey(key);
	}

	/**
	 * The entries from the root to `leafId` (default: the leaf), root first, for any entry of
	 * the log. Never moves the leaf. Entries of a branch that is not in memory (after a reopen
	 * only the active path is) are read from the storage for this call and not kept, so the
	 * session's memory stays bound to its active path; such a read waits for the appends queued
	 * before it. Rejects with a `SessionError` for an
	 * unknown id, and with `SessionClosedError` after `close()` when it would have to read.
	 *
	 * @example
	 * ```ts
	 * const replies = (await session.path()).filter((entry) => entry.type === "message" && entry.message.role === "assistant");
	 * ```
	 */
	path(leafId: string | null = this.leaf): Promise<SessionEntry[]> {
		return this.tree.inMemory(leafId) ? this.tree.path(leafId) : this.afterAppends(() => this.tree.path(leafId));
	}

	/**
	 * The context of the path to `leafId` (default: the leaf), for any entry of the log, on any
	 * storage, also after a reopen: its messages (after a compaction, the summary then the kept
	 * messages) and its latest model, thinking level and system prompt. Never moves the leaf
	 * (`branch()` does). It always returns a promise, because another branch may have to be
	 * read from the storage (see {@link Session.path}).
	 *
	 * @example
	 * ```ts
	 * const { messages, model } = await session.buildContext();
	 * const other = await session.buildContext(olderReplyId); // another branch; the leaf stays
	 * ```
	 */
	async buildContext(leafId: string | null = this.leaf): Promise<SessionContext> {
		return buildSessionContext(await this.path(leafId));
	}

	/**
	 * Moves the leaf to `entryId` (`null`: before the first entry), so the next append starts a
	 * new branch there; the old branch stays in the log. The move is written to the log (a
	 * `leaf` entry), so a reopened session's leaf is here too, even when nothing was appended
	 * after it. Loads that branch into memory (it becomes the active path). Queued with the
	 * appends; moving to the current leaf writes nothing.
	 */
	async branch(entryId: string | null): Promise<void> {
		this.assertOpen();
		if (entryId !== null && !this.tree.has(entryId)) throw new SessionError(`Session ${this.id} has no entry ${entryId} to branch from`);
		return this.queue.run(async () => {
			await this.tree.ensureLoaded(entryId);
			if (entryId === this.leaf) return;
			const entry: SessionEntry = { type: "leaf", id: this.freshId(new Set()), parentId: entryId, timestamp: Date.now() };
			await this.storage.append([entry], this.tree.lastId);
			this.tree.add(entry);
			this.leaf = entryId;
		});
	}

	/**
	 * Appends one message at the leaf (or under `options.parentId`) and moves the leaf to it.
	 * Resolves once the storage accepted it; on rejection nothing changed.
	 */
	async appendMessage(message: AgentMessage, options: AppendMessageOptions = {}): Promise<SessionMessageEntry> {
		const key = options.idempotencyKey;
		return this.enqueue(async () => {
			if (key !== undefined) {
				const existing = this.tree.idempotencyKey(key);
				if (existing !== undefined) return (await this.tree.entry(existing)) as SessionMessageEntry;
			}
			const input: SessionEntryInput = { type: "message", message };
			if (key !== undefined) input.idempotencyKey = key;
			if (options.replaces !== undefined) input.replaces = options.replaces;
			if (options.metadata !== undefined) input.metadata = options.metadata;
			const [entry] = await this.write([input], options.parentId);
			return entry as SessionMessageEntry;
		});
	}

	/**
	 * Appends `message` as a sibling of entry `entryId` (same parent), recording `replaces`, and
	 * moves the leaf to it: the context then has the new message where the old one was, and the
	 * old one stays in the log. A deferred reply's final message replaces its placeholder so.
	 * Entries after `entryId` on its branch are not on the new path.
	 */
	async replaceMessage(entryId: string, message: AgentMessage, options: Omit<AppendMessageOptions, "parentId" | "replaces"> = {}): Promise<SessionMessageEntry> {
		const parentId = this.tree.parentOf(entryId);
		if (parentId === undefined) throw new SessionError(`Session ${this.id} has no entry ${entryId} to replace`);
		return this.appendMessage(message, { ...options, parentId, replaces: entryId });
	}

	/**
	 * Appends several entries as one unit (all or none): the first under the leaf (or
	 * `options.parentId`), each next one under the one before. The leaf moves to the last.
	 *
	 * @example
	 * ```ts
	 * await session.append([{ type: "model_change", provider: "openai", modelId: "gpt-6-luna" }, { type: "thinking_level_change", thinkingLevel: "low" }]);
	 * ```
	 */
	async append(inputs: readonly SessionEntryInput[], options: AppendOptions = {}): Promise<SessionEntry[]> {
		return this.enqueue(() => this.write(inputs, options.parentId));
	}

	/** Names entry `targetId` (`label: undefined` removes the name), by appending a `label` entry. */
	async setLabel(targetId: string, label: string | undefined): Promise<void> {
		if (!this.tree.has(targetId)) throw new SessionError(`Session ${this.id} has no entry ${targetId} to label`);
		await this.append([{ type: "label", targetId, label }]);
	}

	/**
	 * Waits for the appends in flight, releases the lock and closes the storage, which keeps
	 * its entries: `openSession` over it again continues where this one stopped. Idempotent.
	 */
	close(): Promise<void> {
		this.closed ??= (async () => {
			await this.queue.idle();
			try {
				await this.lock?.release();
			} finally {
				await this.storage.close();
			}
		})();
		return this.closed;
	}

	/**
	 * Runs a read of the storage after the appends queued before it, so that it never reads a
	 * log while one of them is half-written (a file's reader could take it for a torn tail).
	 */
	private afterAppends<T>(read: () => Promise<T>): Promise<T> {
		return this.queue.run(read);
	}

	/** Runs an append after the ones before it; rejects at once when the session is closed. */
	private enqueue<T>(task: () => Promise<T>): Promise<T> {
		this.assertOpen();
		return this.queue.run(task);
	}

	private async write(inputs: readonly SessionEntryInput[], parentId: string | null | undefined): Promise<SessionEntry[]> {
		if (inputs.length === 0) return [];
		let parent = parentId === undefined ? this.leaf : parentId;
		if (parent !== null && !this.tree.has(parent)) throw new SessionError(`Session ${this.id} has no entry ${parent} to append under`);
		const timestamp = Date.now();
		const fresh = new Set<string>();
		const entries: SessionEntry[] = [];
		for (const [index, input] of inputs.entries()) {
			// The pinned line order: type, id, parentId, timestamp, then the entry's own fields.
			const { type, ...fields } = input;
			const entry = { type, id: this.freshId(fresh), parentId: parent, timestamp, ...fields } as SessionEntry;
			const problem = (entry.type === "leaf" ? "a leaf entry is written by session.branch(), not appended" : undefined) ?? entryShapeProblem(entry);
			if (problem) throw new TypeError(`Session ${this.id}: cannot append entry ${index}: ${problem}`);
			if (entry.type === "label" && !this.tree.has(entry.targetId) && !fresh.has(entry.targetId)) {
				throw new SessionError(`Session ${this.id} has no entry ${entry.targetId} to label`);
			}
			entries.push(entry);
			parent = entry.id;
		}
		await this.storage.append(entries, this.tree.lastId);
		for (const entry of entries) this.tree.add(entry);
		this.leaf = parent;
		return entries;
	}

	private freshId(taken: Set<string>): string {
		for (;;) {
			const id = newEntryId();
			if (!this.tree.has(id) && !taken.has(id)) {
				taken.add(id);
				return id;
			}
		}
	}

	private assertOpen(): void {
		if (this.closed) throw new SessionClosedError(`Session ${this.id} is closed`);
	}
}
