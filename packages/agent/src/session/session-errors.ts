/**
 * The errors of sessions and their storages. Each names what went wrong and where, so that a
 * user can find the broken line, the other writer or the lock holder.
 */

/** Base class of every session error. */
export class SessionError extends Error {
	override name = "SessionError";
}

/** Where a log is broken: a line and a byte offset for files, a position for other storages. */
export interface SessionCorruptLocation {
	/** The file or other source (e.g. a table and session id). */
	source: string;
	/** 1-based line number, where the storage has lines. */
	line?: number;
	/** Byte offset of the start of that line, where the storage has bytes. */
	byteOffset?: number;
}

/**
 * The log is broken somewhere other than a torn last line: nothing is skipped silently, so
 * opening fails. The message names the source, line and byte offset.
 *
 * @example
 * ```ts
 * try { await openSessionFile(path); } catch (e) { if (e instanceof SessionCorruptError) console.error(e.line, e.byteOffset); }
 * ```
 */
export class SessionCorruptError extends SessionError {
	override name = "SessionCorruptError";
	readonly source: string;
	readonly line: number | undefined;
	readonly byteOffset: number | undefined;
	/** What is wrong, without the location. */
	readonly reason: string;

	constructor(location: SessionCorruptLocation, reason: string, options?: { cause?: unknown }) {
		const where = [
			location.source,
			location.line === undefined ? undefined : `line ${location.line}`,
			location.byteOffset === undefined ? undefined : `byte offset ${location.byteOffset}`,
		]
			.filter((part) => part !== undefined)
			.join(", ");
		super(`Corrupt session log (${where}): ${reason}`, options);
		this.source = location.source;
		this.line = location.line;
		this.byteOffset = location.byteOffset;
		this.reason = reason;
	}
}

/** Who holds a lock, as far as the storage can tell. */
export interface SessionLockHolder {
	/** The holder's process id, for locks held by processes. */
	pid?: number;
	/** The holder's host name. */
	hostname?: string;
	/** A readable description, e.g. `process 4242 on build-3 since 2026-12-01T21:00:00.000Z`. */
	description: string;
}

/**
 * Another live writer holds the session's lock. The message names it; a lock left by a dead
 * process is taken over instead of raising this.
 */
export class SessionLockedError extends SessionError {
	override name = "SessionLockedError";
	readonly source: string;
	readonly holder: SessionLockHolder;

	constructor(source: string, holder: SessionLockHolder) {
		super(`Session ${source} is locked by ${holder.description}`);
		this.source = source;
		this.holder = holder;
	}
}

/**
 * An append expected a different end of the log: someone appended in between (a second writer
 * that bypassed the lock). Nothing was appended; reopen the session to see the other writes.
 */
export class SessionConflictError extends SessionError {
	override name = "SessionConflictError";
	readonly source: string;
	readonly expectedLastId: string | null;
	readonly actualLastId: string | null;

	constructor(source: string, expectedLastId: string | null, actualLastId: string | null) {
		super(
			`Session ${source}: append expected the log to end at ${expectedLastId ?? "(empty log)"}, ` +
				`but it ends at ${actualLastId ?? "(empty log)"}: another writer appended`,
		);
		this.source = source;
		this.expectedLastId = expectedLastId;
		this.actualLastId = actualLastId;
	}
}

/** A session used after `close()`. */
export class SessionClosedError extends SessionError {
	override name = "SessionClosedError";
}
