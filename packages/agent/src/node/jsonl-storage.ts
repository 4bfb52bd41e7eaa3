/**
 * The JSONL file storage: one session per file, a header line, then one entry per line (see
 * `jsonl-format.ts`). Appends are single writes of complete lines to a file opened in append
 * mode; `fsync` durability syncs each one. Opening streams the file and repairs a torn tail.
 */
import { fstatSync } from "node:fs";
import { mkdir, open, type FileHandle } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { SessionConflictError, SessionCorruptError } from "../session/session-errors.js";
import type { SessionEntry } from "../session/session-entry.js";
import { newSessionId } from "../session/session-ids.js";
import type { SessionLog, SessionStorage, SessionStorageLock } from "../session/session-storage.js";
import { acquireFileLock } from "./file-lock.js";
import { lastEntryId, readText, repairPoint } from "./file-tail.js";
import { entryLines, headerLine, parseEntry, parseHeader } from "./jsonl-format.js";
import { readFileLines } from "./jsonl-lines.js";

/**
 * How durable an append is when it resolves:
 * - `flush` (default): written to the operating system, so it survives a crash of the process;
 * - `fsync`: also synced to the disk, so it survives a power loss (slower: one sync per append).
 */
export type SessionDurability = "flush" | "fsync";

/** Options of {@link createJsonlSessionStorage}. */
export interface JsonlSessionStorageOptions {
	/** Default `flush`. */
	durability?: SessionDurability;
}

/**
 * A {@link SessionStorage} over the JSONL file at `path`, created (with its folder) on the
 * first load when missing. The lock is the file `<path>.lock`, naming the holding process.
 *
 * @example
 * ```ts
 * const session = await openSession(createJsonlSessionStorage("chats/42.jsonl", { durability: "fsync" }));
 * ```
 */
export function createJsonlSessionStorage(path: string, options: JsonlSessionStorageOptions = {}): SessionStorage {
	return new JsonlSessionStorage(resolve(path), options.durability ?? "flush");
}

class JsonlSessionStorage implements SessionStorage {
	private file: FileHandle | undefined;
	private opening: Promise<FileHandle> | undefined;
	private locks = 0;
	private id: string | undefined;
	/** Bytes of the header line, newline included. */
	private headerEnd = 0;
	/** The file size this storage last wrote or read up to, and the id of the entry ending there. */
	private knownSize = -1;
	private knownLastId: string | null | undefined;

	constructor(
		private readonly path: string,
		private readonly durability: SessionDurability,
	) {}

	async load(): Promise<SessionLog> {
		const file = await this.handle();
		const size = (await file.stat()).size;
		const { end: cut, dropped } = await repairPoint(file, size);
		let end = cut;
		// Only the lock holder may change the file; a reader just stops before the torn tail.
		if (dropped && this.locks > 0) await file.truncate(cut);
		if (end === 0 && (this.locks > 0 || size === 0)) {
			if (dropped && this.locks === 0) throw new SessionCorruptError({ source: this.path, line: 1, byteOffset: 0 }, "the session header is torn");
			end = await this.writeHeader(file);
		}
		await this.readHeader(file, end);
		if (this.knownSize !== end) {
			this.knownSize = end;
			this.knownLastId = undefined;
		}
		return { id: this.id as string, repaired: dropped, entries: this.readEntries(file, end) };
	}

	async append(entries: readonly SessionEntry[], expectedLastId: string | null): Promise<void> {
		const file = await this.handle();
		if (this.knownSize < 0) await this.load();
		// Another writer (one that bypassed the lock) may have appended since: compare the end of
		// the file itself, not what this storage believes. A synchronous fstat costs about a
		// microsecond; the asynchronous one is a thread-pool round trip, as dear as the write.
		const size = fstatSync(file.fd).size;
		if (size !== this.knownSize || this.knownLastId === undefined) {
			const actual = await this.lastIdAt(file, size);
			if (actual === undefined) {
				throw new SessionConflictError(this.path, expectedLastId, "(a torn line)");
			}
			this.knownSize = size;
			this.knownLastId = actual;
		}
		if (this.knownLastId !== expectedLastId) throw new SessionConflictError(this.path, expectedLastId, this.knownLastId);
		if (entries.length === 0) return;
		const bytes = Buffer.from(entryLines(entries), "utf8");
		try {
			await writeAll(file, bytes);
			if (this.durability === "fsync") await file.datasync();
		} catch (error) {
			// Leave no partial line behind a failed write (a full disk, say).
			await file.truncate(this.knownSize).catch(() => {});
			throw error;
		}
		this.knownSize += bytes.length;
		this.knownLastId = (entries[entries.length - 1] as SessionEntry).id;
	}

	async lock(): Promise<SessionStorageLock> {
		await mkdir(dirname(this.path), { recursive: true });
		const lock = await acquireFileLock(`${this.path}.lock`, this.path);
		this.locks++;
		let released = false;
		return {
			release: async () => {
				if (released) return;
				released = true;
				this.locks--;
				await lock.release();
			},
		};
	}

	/** Closes the file; a later call opens it again and reads what it knows afresh. */
	async close(): Promise<void> {
		const file = this.file ?? (await this.opening?.catch(() => undefined));
		this.file = undefined;
		this.opening = undefined;
		this.id = undefined;
		this.knownSize = -1;
		this.knownLastId = undefined;
		await file?.close();
	}

	private async handle(): Promise<FileHandle> {
		if (this.file) return this.file;
		this.opening ??= (async () => {
			await mkdir(dirname(this.path), { recursive: true });
			// a+: reads anywhere, writes always at the end (O_APPEND), creates the file.
			const file = await open(this.path, "a+");
			this.file = file;
			return file;
		})();
		return this.opening;
	}

	private async writeHeader(file: FileHandle): Promise<number> {
		const bytes = Buffer.from(headerLine(newSessionId(), Date.now()), "utf8");
		await writeAll(file, bytes);
		if (this.durability === "fsync") {
			await file.sync();
			await syncFolder(dirname(this.path));
		}
		return bytes.length;
	}

	private async readHeader(file: FileHandle, end: number): Promise<void> {
		if (this.id !== undefined) return;
		let headerText: string | undefined;
		let headerLength = 0;
		for await (const line of readFileLines(file, 0, end, 1)) {
			headerText = line.text;
			headerLength = Buffer.byteLength(line.text, "utf8") + 1;
			break;
		}
		if (headerText === undefined) throw new SessionCorruptError({ source: this.path, line: 1, byteOffset: 0 }, "the file has no session header");
		const header = parseHeader(headerText);
		if (typeof header === "string") throw new SessionCorruptError({ source: this.path, line: 1, byteOffset: 0 }, header);
		this.id = header.id;
		this.headerEnd = headerLength;
	}

	private async *readEntries(file: FileHandle, end: number): AsyncGenerator<SessionEntry> {
		for await (const line of readFileLines(file, this.headerEnd, end, 2)) {
			const entry = parseEntry(line.text);
			if (typeof entry === "string") throw new SessionCorruptError({ source: this.path, line: line.line, byteOffset: line.offset }, entry);
			yield entry;
		}
	}

	private async lastIdAt(file: FileHandle, size: number): Promise<string | null | undefined> {
		if (size === 0) return undefined;
		const last = await readText(file, size - 1, size);
		if (last !== "\n") return undefined;
		return lastEntryId(file, size, this.headerEnd);
	}
}

async function writeAll(file: FileHandle, bytes: Buffer): Promise<void> {
	let written = 0;
	// One write in practice; the loop only covers a short write.
	while (written < bytes.length) {
		const result = await file.write(bytes, written, bytes.length - written, null);
		written += result.bytesWritten;
	}
}

/** Makes a new file's directory entry durable (a power loss could otherwise lose the file). */
async function syncFolder(folder: string): Promise<void> {
	const handle = await open(folder, "r").catch(() => undefined);
	if (!handle) return;
	try {
		await handle.sync();
	} catch {
		// Some platforms cannot sync a directory; the file's own data is synced.
	} finally {
		await handle.close();
	}
}
