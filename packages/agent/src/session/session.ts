/**
 * A session: the tree of entries of one append-only log, the leaf where the next entry
 * attaches, and the context an agent resumes from. The storage keeps the log; the session keeps
 * the tree in memory, with the entries' contents for the active path only (other branches are
 * re-read from the storage when needed), so memory grows with the active path.
 */
import type { AgentMessage } from "../types.js";
import { buildSessionContext } from "./build-context.js";
import { entryShapeProblem } from "./check-entry.js";
import type { SessionContext, SessionEntry, SessionEntryInput, SessionMessageEntry } from "./session-entry.js";
import { SessionClosedError, SessionCorruptError, SessionError } from "./session-errors.js";
import { newEntryId } from "./session-ids.js";
import type { SessionLog, SessionStorage, SessionStorageLock } from "./session-storage.js";

/** Options of {@link openSession}. */
export interface OpenSessionOptions {
	/**
	 * Take the storage's single-writer lock for as long as the session is open. Default `true`;
	 * `false` opens for reading (appends still work, but nothing stops a second writer except
	 * the storage's conflict check).
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

/** What the session knows of every entry, loaded or not. */
interface EntryNode {
	id: string;
	parentId: string | null;
	/** Distance from the root (a root has 0). */
	depth: number;
	/** The entry itself, when loaded (always for the active path). */
	entry: SessionEntry | undefined;
}

/**
 * Opens the session kept by `storage`: takes its lock (unless `lock: false`), streams its log,
 * checks that every entry is well-formed and names a known parent, and puts the leaf on the
 * last entry. Rejects with `SessionLockedError` when another writer holds the lock and with
 * `SessionCorruptError` when the log is broken (a torn last line is repaired by the storage
 * instead, and `session.repaired` says so).
 *
 * @example
 * ```ts
 * const session = await openSession(createMemorySessionStorage());
 * await session.appendMessage({ role: "user", content: "Hello", timestamp: Date.now() });
 * session.buildContext().messages.length; // 1
 * await session.close();
 * ```
 */
export async function openSession(storage: SessionStorage, options: OpenSessionOptions = {}): Promise<Session> {
	const lock = options.lock === false ? undefined : await storage.lock();
	try {
		const log = await storage.load();
		const session = new Session(storage, log, lock);
		await session.readLog(log);
		return session;
	} catch (error) {
		await lock?.release().catch(() => {});
		await storage.close().catch(() => {});
		throw error;
	}
}

/**
 * One conversation's log as a tree. Create it with {@link openSession} (or `openSessionFile`
 * from `@pi/agent-core/node`). Appends are serialized: each one waits for the ones before it,
 * and the leaf moves only once the storage has accepted the entries.
 */
export class Session {
	/** The session's id, from its storage. */
	readonly id: string;
	/** True when opening dropped a torn or unreadable last line of the log. */
	readonly repaired: boolean;

	private readonly nodes = new Map<string, EntryNode>();
	/** Entry ids in log order. */
	private readonly order: string[] = [];
	private readonly labels = new Map<string, string>();
	private readonly idempotencyKeys = new Map<string, string>();
	private leaf: string | null = null;
	private lastId: string | null = null;
	/** False once an entry's content was released (it is then re-read from the storage). */
	private allLoaded = true;
	private queue: Promise<unknown> = Promise.resolve();
	private closed: Promise<void> | undefined;

	/** @internal Use {@link openSession}. */
	constructor(
		private readonly storage: SessionStorage,
		log: SessionLog,
		private readonly lock: SessionStorageLock | undefined,
	) {
		this.id = log.id;
		this.repaired = log.repaired;
	}

	/** The entry the next append attaches to; `null` before the first entry (or after `branch(null)`). */
	get leafId(): string | null {
		return this.leaf;
	}

	/** How many entries the log holds. */
	get entryCount(): number {
		return this.order.length;
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
		if (this.allLoaded) return this.order.map((id) => this.nodes.get(id)?.entry as SessionEntry);
		const result: SessionEntry[] = [];
		const log = await this.storage.load();
		for await (const entry of log.entries) if (this.nodes.has(entry.id)) result.push(entry);
		return result;
	}

	/** The entry with this id if it is loaded (every entry of the active path is), else `undefined`. */
	getEntry(id: string): SessionEntry | undefined {
		return this.nodes.get(id)?.entry;
	}

	/** True when the log has an entry with this id. */
	hasEntry(id: string): boolean {
		return this.nodes.has(id);
	}

	/** The id of the entry's parent (`null` for a root), or `undefined` for an unknown id. */
	parentOf(id: string): string | null | undefined {
		return this.nodes.get(id)?.parentId;
	}

	/** The latest label of an entry (from `label` entries), if any. */
	getLabel(id: string): string | undefined {
		return this.labels.get(id);
	}

	/** The id of the message entry appended with this idempotency key, if any. */
	findByIdempotencyKey(key: string): string | undefined {
		return this.idempotencyKeys.get(key);
	}

	/**
	 * The entries from the root to `leafId` (default: the leaf), root first. Throws a
	 * `SessionError` for an unknown id, or when that branch is not loaded: after a reopen only
	 * the active path is in memory; `await session.branch(id)` loads another one.
	 */
	path(leafId: string | null = this.leaf): SessionEntry[] {
		const result: SessionEntry[] = [];
		let id = leafId;
		while (id !== null) {
			const node = this.nodes.get(id);
			if (!node) throw new SessionError(`Session ${this.id} has no entry ${id}`);
			if (!node.entry) {
				throw new SessionError(`Session ${this.id}: the branch of entry ${leafId} is not loaded; await session.branch(${JSON.stringify(leafId)}) first`);
			}
			result.push(node.entry);
			id = node.parentId;
		}
		return result.reverse();
	}

	/**
	 * The context of the path to `leafId` (default: the leaf): its messages (after a compaction,
	 * the summary then the kept messages) and its latest model, thinking level and system prompt.
	 *
	 * @example
	 * ```ts
	 * const { messages, model } = session.buildContext();
	 * ```
	 */
	buildContext(leafId: string | null = this.leaf): SessionContext {
		return buildSessionContext(this.path(leafId));
	}

	/**
	 * Moves the leaf to `entryId` (`null`: before the first entry), so the next append starts a
	 * new branch there; the old branch stays in the log. Loads that branch if it is not in memory.
	 * The leaf itself is not persisted: a reopened session's leaf is the log's last entry, so a
	 * branch lasts once something is appended to it.
	 */
	async branch(entryId: string | null): Promise<void> {
		this.assertOpen();
		if (entryId !== null && !this.nodes.has(entryId)) throw new SessionError(`Session ${this.id} has no entry ${entryId} to branch from`);
		await this.ensureLoaded(entryId);
		this.leaf = entryId;
	}

	/**
	 * Appends one message at the leaf (or under `options.parentId`) and moves the leaf to it.
	 * Resolves once the storage accepted it; on rejection nothing changed.
	 */
	async appendMessage(message: AgentMessage, options: AppendMessageOptions = {}): Promise<SessionMessageEntry> {
		const key = options.idempotencyKey;
		return this.enqueue(async () => {
			if (key !== undefined) {
				const existing = this.idempotencyKeys.get(key);
				if (existing !== undefined) return (await this.loadEntry(existing)) as SessionMessageEntry;
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
		const node = this.nodes.get(entryId);
		if (!node) throw new SessionError(`Session ${this.id} has no entry ${entryId} to replace`);
		return this.appendMessage(message, { ...options, parentId: node.parentId, replaces: entryId });
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
		if (!this.nodes.has(targetId)) throw new SessionError(`Session ${this.id} has no entry ${targetId} to label`);
		await this.append([{ type: "label", targetId, label }]);
	}

	/** Waits for the appends in flight, releases the lock and closes the storage. Idempotent. */
	close(): Promise<void> {
		this.closed ??= (async () => {
			await this.queue.catch(() => {});
			try {
				await this.lock?.release();
			} finally {
				await this.storage.close();
			}
		})();
		return this.closed;
	}

	/** @internal Reads the log once, at open. */
	async readLog(log: SessionLog): Promise<void> {
		let index = 0;
		let missing = false;
		for await (const entry of log.entries) {
			index++;
			const problem = entryShapeProblem(entry) ?? this.linkProblem(entry);
			if (problem) throw new SessionCorruptError({ source: `session ${this.id}, entry ${index}` }, problem);
			if (entry.parentId !== this.lastId) missing = this.releaseOffPath(this.lastId, entry.parentId) || missing;
			this.add(entry);
		}
		this.leaf = this.lastId;
		if (missing) await this.ensureLoaded(this.leaf);
	}

	private linkProblem(entry: SessionEntry): string | undefined {
		if (this.nodes.has(entry.id)) return `duplicate entry id ${entry.id}`;
		if (entry.parentId !== null && !this.nodes.has(entry.parentId)) return `entry ${entry.id} names an unknown parent ${entry.parentId}`;
		return undefined;
	}

	private add(entry: SessionEntry): void {
		const parent = entry.parentId === null ? undefined : this.nodes.get(entry.parentId);
		this.nodes.set(entry.id, { id: entry.id, parentId: entry.parentId, depth: parent ? parent.depth + 1 : 0, entry });
		this.order.push(entry.id);
		this.lastId = entry.id;
		if (entry.type === "label") {
			if (entry.label === undefined) this.labels.delete(entry.targetId);
			else this.labels.set(entry.targetId, entry.label);
		} else if (entry.type === "message" && entry.idempotencyKey !== undefined) {
			this.idempotencyKeys.set(entry.idempotencyKey, entry.id);
		}
	}

	/**
	 * While reading, keeps contents only on the path to the newest entry: when an entry attaches
	 * elsewhere than the previous one, the old path below the common ancestor is released.
	 * Returns true when the new path crosses an entry released earlier.
	 */
	private releaseOffPath(oldTip: string | null, newParent: string | null): boolean {
		let a = oldTip === null ? undefined : this.nodes.get(oldTip);
		let b = newParent === null ? undefined : this.nodes.get(newParent);
		let missing = false;
		const release = (node: EntryNode) => {
			if (node.entry) {
				node.entry = undefined;
				this.allLoaded = false;
			}
		};
		while (a && (!b || a.depth > b.depth)) {
			release(a);
			a = a.parentId === null ? undefined : this.nodes.get(a.parentId);
		}
		while (b && (!a || b.depth > a.depth)) {
			if (!b.entry) missing = true;
			b = b.parentId === null ? undefined : this.nodes.get(b.parentId);
		}
		while (a && b && a !== b) {
			release(a);
			if (!b.entry) missing = true;
			a = a.parentId === null ? undefined : this.nodes.get(a.parentId);
			b = b.parentId === null ? undefined : this.nodes.get(b.parentId);
		}
		return missing;
	}

	/** Re-reads the log for the contents of the path to `leafId`, when any is missing. */
	private async ensureLoaded(leafId: string | null): Promise<void> {
		const needed = new Set<string>();
		for (let id = leafId; id !== null; ) {
			const node = this.nodes.get(id) as EntryNode;
			if (!node.entry) needed.add(id);
			id = node.parentId;
		}
		if (needed.size > 0) await this.reload(needed);
	}

	private async loadEntry(id: string): Promise<SessionEntry> {
		const node = this.nodes.get(id) as EntryNode;
		if (!node.entry) await this.reload(new Set([id]));
		return node.entry as SessionEntry;
	}

	private async reload(ids: Set<string>): Promise<void> {
		const log = await this.storage.load();
		for await (const entry of log.entries) {
			if (!ids.has(entry.id)) continue;
			const node = this.nodes.get(entry.id);
			if (node) node.entry = entry;
		}
		for (const id of ids) {
			if (!this.nodes.get(id)?.entry) throw new SessionError(`Session ${this.id}: entry ${id} vanished from the storage`);
		}
	}

	/** Runs appends one at a time, in call order. */
	private enqueue<T>(task: () => Promise<T>): Promise<T> {
		this.assertOpen();
		const result = this.queue.then(task, task);
		this.queue = result.catch(() => {});
		return result;
	}

	private async write(inputs: readonly SessionEntryInput[], parentId: string | null | undefined): Promise<SessionEntry[]> {
		if (inputs.length === 0) return [];
		let parent = parentId === undefined ? this.leaf : parentId;
		if (parent !== null && !this.nodes.has(parent)) throw new SessionError(`Session ${this.id} has no entry ${parent} to append under`);
		const timestamp = Date.now();
		const fresh = new Set<string>();
		const entries: SessionEntry[] = [];
		for (const [index, input] of inputs.entries()) {
			// The pinned line order: type, id, parentId, timestamp, then the entry's own fields.
			const { type, ...fields } = input;
			const entry = { type, id: this.freshId(fresh), parentId: parent, timestamp, ...fields } as SessionEntry;
			const problem = entryShapeProblem(entry);
			if (problem) throw new TypeError(`Session ${this.id}: cannot append entry ${index}: ${problem}`);
			if (entry.type === "label" && !this.nodes.has(entry.targetId) && !fresh.has(entry.targetId)) {
				throw new SessionError(`Session ${this.id} has no entry ${entry.targetId} to label`);
			}
			entries.push(entry);
			parent = entry.id;
		}
		await this.storage.append(entries, this.lastId);
		for (const entry of entries) this.add(entry);
		this.leaf = this.lastId;
		return entries;
	}

	private freshId(taken: Set<string>): string {
		for (;;) {
			const id = newEntryId();
			if (!this.nodes.has(id) && !taken.has(id)) {
				taken.add(id);
				return id;
			}
		}
	}

	private assertOpen(): void {
		if (this.closed) throw new SessionClosedError(`Session ${this.id} is closed`);
	}
}
