/**
 * The lazy half of a session: the tree of every entry of the log, by id and parent, with the
 * entries' contents kept for the active path only. Other branches are re-read from the storage
 * when asked for, so the memory of a large session grows with its active path, not its log.
 */
import { entryShapeProblem } from "./check-entry.js";
import type { SessionEntry } from "./session-entry.js";
import { SessionCorruptError, SessionError } from "./session-errors.js";
import type { SessionLog } from "./session-storage.js";

/** What the tree knows of every entry, loaded or not. */
interface EntryNode {
	id: string;
	parentId: string | null;
	/** Distance from the root (a root has 0). */
	depth: number;
	/** The entry itself, when loaded (always for the active path). */
	entry: SessionEntry | undefined;
}

/** Streams the log again: how the tree reads what it released. */
export type ReadLog = () => Promise<SessionLog>;

/**
 * Every entry of one log as a tree, with the leaf the log leaves off at, the labels and the
 * idempotency keys, filled by {@link SessionTree.read}; the `Session` owns it.
 */
export class SessionTree {
	private readonly nodes = new Map<string, EntryNode>();
	/** Entry ids in log order. */
	private readonly order: string[] = [];
	private readonly labels = new Map<string, string>();
	private readonly idempotencyKeys = new Map<string, string>();
	/** The log's last entry: what the storage's conflict check expects. */
	private last: string | null = null;
	/** False once an entry's content was released (it is then re-read from the storage). */
	private allLoaded = true;

	constructor(
		private readonly sessionId: string,
		private readonly readLog: ReadLog,
	) {}

	/**
	 * Reads `log` once, at open: checks that every entry is well-formed and names a known parent
	 * (else `SessionCorruptError` naming the entry), keeps contents on the path to the newest
	 * entry only, and loads the path to {@link leafAtEnd} when reading released part of it.
	 */
	async read(log: SessionLog): Promise<void> {
		let index = 0;
		let missing = false;
		for await (const entry of log.entries) {
			index++;
			const problem = entryShapeProblem(entry) ?? this.linkProblem(entry);
			if (problem) throw new SessionCorruptError({ source: `session ${this.sessionId}, entry ${index}` }, problem);
			if (entry.parentId !== this.last) missing = this.releaseOffPath(this.last, entry.parentId) || missing;
			this.add(entry);
		}
		if (missing) await this.ensureLoaded(this.leafAtEnd());
	}

	/** The id of the log's last entry (`null`: the log is empty). */
	get lastId(): string | null {
		return this.last;
	}

	/** How many entries the log holds. */
	get size(): number {
		return this.order.length;
	}

	/**
	 * Where the log leaves the leaf: its last entry, or that entry's parent when it is a `leaf`
	 * entry (a `branch()` with nothing appended after it).
	 */
	leafAtEnd(): string | null {
		if (this.last === null) return null;
		const node = this.nodes.get(this.last) as EntryNode;
		return node.entry?.type === "leaf" ? node.parentId : node.id;
	}

	/** True when the log has an entry with this id. */
	has(id: string): boolean {
		return this.nodes.has(id);
	}

	/** The entry if its content is in memory. */
	loaded(id: string): SessionEntry | undefined {
		return this.nodes.get(id)?.entry;
	}

	/** The entry's parent (`null` for a root), or `undefined` for an unknown id. */
	parentOf(id: string): string | null | undefined {
		return this.nodes.get(id)?.parentId;
	}

	/** The latest label of an entry. */
	label(id: string): string | undefined {
		return this.labels.get(id);
	}

	/** The id of the message entry appended with this idempotency key. */
	idempotencyKey(key: string): string | undefined {
		return this.idempotencyKeys.get(key);
	}

	/** Why `entry` cannot join the tree (a duplicate id, an unknown parent), or `undefined`. */
	private linkProblem(entry: SessionEntry): string | undefined {
		if (this.nodes.has(entry.id)) return `duplicate entry id ${entry.id}`;
		if (entry.parentId !== null && !this.nodes.has(entry.parentId)) return `entry ${entry.id} names an unknown parent ${entry.parentId}`;
		return undefined;
	}

	/** Adds an entry the storage accepted (its content stays loaded). */
	add(entry: SessionEntry): void {
		const parent = entry.parentId === null ? undefined : this.nodes.get(entry.parentId);
		this.nodes.set(entry.id, { id: entry.id, parentId: entry.parentId, depth: parent ? parent.depth + 1 : 0, entry });
		this.order.push(entry.id);
		this.last = entry.id;
		if (entry.type === "label") {
			if (entry.label === undefined) this.labels.delete(entry.targetId);
			else this.labels.set(entry.targetId, entry.label);
		} else if (entry.type === "message" && entry.idempotencyKey !== undefined) {
			this.idempotencyKeys.set(entry.idempotencyKey, entry.id);
		}
	}

	/** True when every entry's content is in memory (nothing was released at open). */
	get complete(): boolean {
		return this.allLoaded;
	}

	/** False when the path to `leafId` crosses a released entry (reading it needs the storage). */
	inMemory(leafId: string | null): boolean {
		for (let id = leafId; id !== null; ) {
			const node = this.nodes.get(id);
			if (!node) return true; // path() rejects at once
			if (!node.entry) return false;
			id = node.parentId;
		}
		return true;
	}

	/**
	 * The entries from the root to `leafId`, root first. Released entries are read from the
	 * storage into this result only: the tree keeps its memory bound. Rejects with a
	 * `SessionError` for an unknown id.
	 */
	async path(leafId: string | null): Promise<SessionEntry[]> {
		const ids: string[] = [];
		const missing = new Set<string>();
		for (let id = leafId; id !== null; ) {
			const node = this.nodes.get(id);
			if (!node) throw new SessionError(`Session ${this.sessionId} has no entry ${id}`);
			ids.push(id);
			if (!node.entry) missing.add(id);
			id = node.parentId;
		}
		const read = missing.size > 0 ? await this.readEntries(missing) : undefined;
		return ids.reverse().map((id) => (this.nodes.get(id)?.entry ?? read?.get(id)) as SessionEntry);
	}

	/** Every entry in log order; after a release, one read of the whole log. */
	async entries(): Promise<SessionEntry[]> {
		if (this.allLoaded) return this.order.map((id) => this.nodes.get(id)?.entry as SessionEntry);
		const result: SessionEntry[] = [];
		const log = await this.readLog();
		for await (const entry of log.entries) if (this.nodes.has(entry.id)) result.push(entry);
		return result;
	}

	/** Keeps the contents of the path to `leafId` in memory, reading the released ones. */
	async ensureLoaded(leafId: string | null): Promise<void> {
		const needed = new Set<string>();
		for (let id = leafId; id !== null; ) {
			const node = this.nodes.get(id) as EntryNode;
			if (!node.entry) needed.add(id);
			id = node.parentId;
		}
		if (needed.size === 0) return;
		for (const [id, entry] of await this.readEntries(needed)) (this.nodes.get(id) as EntryNode).entry = entry;
	}

	/** One entry, read from the storage when released (kept loaded then). */
	async entry(id: string): Promise<SessionEntry> {
		const node = this.nodes.get(id) as EntryNode;
		if (!node.entry) node.entry = (await this.readEntries(new Set([id]))).get(id);
		return node.entry as SessionEntry;
	}

	/**
	 * Reads the entries `ids` from the storage, in one pass over the log that stops at the last
	 * one needed (the log was checked whole at open): an old branch costs a read of the log's
	 * beginning only.
	 */
	private async readEntries(ids: ReadonlySet<string>): Promise<Map<string, SessionEntry>> {
		const found = new Map<string, SessionEntry>();
		const log = await this.readLog();
		for await (const entry of log.entries) {
			if (!ids.has(entry.id)) continue;
			found.set(entry.id, entry);
			if (found.size === ids.size) break;
		}
		for (const id of ids) if (!found.has(id)) throw new SessionError(`Session ${this.sessionId}: entry ${id} vanished from the storage`);
		return found;
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
}
