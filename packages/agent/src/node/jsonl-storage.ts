/**
 * The JSONL file storage: one session per file, a header line, then one entry per line (see
 * `jsonl-format.ts`). Appends are single writes of complete lines to a file opened in append
 * mode; `fsync` durability syncs each one. Opening checks the header before anything else (a
 * file that is not a session is never modified), streams the file and repairs a torn tail.
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
import { entryLines, GROUP_FIELD, headerLine, isTornHeader, MAX_HEADER_BYTES, parseEntry, parseHeader } from "./jsonl-format.js";
import { DEFAULT_MAX_LINE_BYTES, readFileLines } from "./jsonl-lines.js";

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
	/**
	 * The longest line read, in bytes: a longer one rejects with `SessionCorruptError` naming its
	 * line and offset instead of exhausting memory. Default 128 MiB (V8 cannot hold a string of
	 * about 512 MiB at all).
	 */
	maxLineBytes?: number;
}

/** Who may read a new session file and its folder: the user alone (conversations are private). */
const FILE_MODE = 0o600;
const FOLDER_MODE = 0o700;

/**
 * A {@link SessionStorage} over the JSONL file at `path`, created (with its folder) on the
 * first load when missing, readable by the user alone (`0600`, folder `0700`). The lock is the
 * file `<path>.lock`, naming the holding process. A file whose first line is not a session header
 * is refused with `SessionCorruptError` naming it, and left as it was.
 *
 * @example
 * ```ts
 * const session = await openSession(createJsonlSessionStorage("chats/42.jsonl", { durability: "fsync" }));
 * ```
 */
export function createJsonlSessionStorage(path: string, options: JsonlSessionStorageOptions = {}): SessionStorage {
	return new JsonlSessionStorage(resolve(path), options.durability ?? "flush", options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
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
	/** Where the file is to be cut once it read cleanly: its torn tail, found by the last load. */
	private pendingCut: number | undefined;

	constructor(
		private readonly path: string,
		private readonly durability: SessionDurability,
		private readonly maxLineBytes: number,
	) {}

	async load(): Promise<SessionLog> {
		const file = await this.handle();
		const size = (await file.stat()).size;
		// Before anything may write: a file that is not a session is never touched.
		await this.checkHeader(file, size);
		const { end: cut, dropped } = await repairPoint(file, size, this.maxLineBytes);
		let end = cut;
		// Only the lock holder may change the file, and only once the rest of it read cleanly (at
		// the end of `entries`, or before its first append): a file corrupt elsewhere is left whole.
		this.pendingCut = dropped && this.locks > 0 ? cut : undefined;
		if (end === 0 && (this.locks > 0 || size === 0)) {
			if (dropped && this.locks === 0) throw new SessionCorruptError({ source: this.path, line: 1, byteOffset: 0 }, "the session header is torn");
			// A torn header and nothing else: the file starts over.
			if (dropped) await file.truncate(0);
			this.pendingCut = undefined;
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
		await this.cutTornTail(file);
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
		for (const entry of entries) {
			if (GROUP_FIELD in entry) throw new TypeError(`Session file ${this.path}: entry ${entry.id} has a "${GROUP_FIELD}" field, which the JSONL format reserves`);
		}
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
		await mkdir(dirname(this.path), { recursive: true, mode: FOLDER_MODE });
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
		this.pendingCut = undefined;
		await file?.close();
	}

	private async handle(): Promise<FileHandle> {
		if (this.file) return this.file;
		this.opening ??= (async () => {
			await mkdir(dirname(this.path), { recursive: true, mode: FOLDER_MODE });
			// a+: reads anywhere, writes always at the end (O_APPEND), creates the file.
			const notAFile = () => new SessionCorruptError({ source: this.path }, "not a regular file (a FIFO, a device or a folder); it was left unchanged");
			const file = await open(this.path, "a+", FILE_MODE).catch((error: NodeJS.ErrnoException) => {
				throw error.code === "EISDIR" ? notAFile() : error;
			});
			// A FIFO or a device would block the reads forever.
			if (!(await file.stat()).isFile()) {
				await file.close();
				throw notAFile();
			}
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

	/**
	 * Rejects, naming the file, unless it is empty, starts with a session header line, or holds
	 * nothing but the start of one (a new file torn by a crash while its header was written).
	 */
	private async checkHeader(file: FileHandle, size: number): Promise<void> {
		if (size === 0) return;
		const head = Buffer.allocUnsafe(Math.min(size, MAX_HEADER_BYTES));
		const { bytesRead } = await file.read(head, 0, head.length, 0);
		const newline = head.subarray(0, bytesRead).indexOf(0x0a);
		const notSession = (why: string) => new SessionCorruptError({ source: this.path, line: 1, byteOffset: 0 }, `${why}: ${this.path} is not a session file, and it was left unchanged`);
		if (newline < 0) {
			if (bytesRead < size) throw notSession(`line 1 is longer than ${MAX_HEADER_BYTES} bytes`);
			if (!isTornHeader(head.toString("utf8", 0, bytesRead))) throw notSession('line 1 is not a session header ({"type":"session",…})');
			return;
		}
		const header = parseHeader(head.toString("utf8", 0, newline));
		if (typeof header === "string") throw notSession(header);
	}

	private async readHeader(file: FileHandle, end: number): Promise<void> {
		if (this.id !== undefined) return;
		let headerText: string | undefined;
		let headerLength = 0;
		for await (const line of readFileLines(file, 0, end, 1, this.path, MAX_HEADER_BYTES)) {
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
		for await (const line of readFileLines(file, this.headerEnd, end, 2, this.path, this.maxLineBytes)) {
			const entry = parseEntry(line.text);
			if (typeof entry === "string") throw new SessionCorruptError({ source: this.path, line: line.line, byteOffset: line.offset }, entry);
			yield entry;
		}
		await this.cutTornTail(file);
	}

	private async cutTornTail(file: FileHandle): Promise<void> {
		if (this.pendingCut === undefined || this.locks === 0) return;
		const cut = this.pendingCut;
		this.pendingCut = undefined;
		await file.truncate(cut);
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
