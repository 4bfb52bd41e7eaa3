/**
 * A lock file beside a session file (`<file>.lock`), naming the process that holds it. A
 * second live process is refused with `SessionLockedError` naming the holder; a lock whose
 * process is gone (same host, no such pid) is taken over.
 *
 * Why a file and not `flock`: Node has no portable `flock`, and a named holder makes the error
 * useful. The lock is created atomically (written to a temporary file, then hard-linked to its
 * name, which fails if the name exists), so a reader never sees a half-written lock.
 */
import { randomUUID } from "node:crypto";
import { link, mkdir, open, rmdir, stat, unlink, writeFile } from "node:fs/promises";
import { constants, unlinkSync } from "node:fs";
import { hostname } from "node:os";
import { SessionLockedError, type SessionLockHolder } from "../session/session-errors.js";
import type { SessionStorageLock } from "../session/session-storage.js";

/** What a lock file holds. */
interface LockRecord {
	pid: number;
	hostname: string;
	/** ISO time the lock was taken. */
	since: string;
	/** Tells this holder's lock from a later one of the same pid. */
	token: string;
}

/** Lock files this process holds, by path: a second open in the same process is refused too. */
const held = new Map<string, string>();
let exitHookInstalled = false;

/** A takeover marker older than this is left by a dead taker and may be removed. */
const STALE_TAKEOVER_MS = 10_000;

/**
 * Takes the lock at `lockPath` for the session named `source`, or rejects with
 * `SessionLockedError` naming the live holder.
 */
export async function acquireFileLock(lockPath: string, source: string): Promise<SessionStorageLock> {
	if (held.has(lockPath)) throw new SessionLockedError(source, describe({ pid: process.pid, hostname: hostname(), since: "", token: "" }, "this process"));
	const record: LockRecord = { pid: process.pid, hostname: hostname(), since: new Date().toISOString(), token: randomUUID() };
	const temporary = `${lockPath}.${process.pid}.${record.token.slice(0, 8)}.tmp`;
	await writeFile(temporary, `${JSON.stringify(record)}\n`, { flag: "wx", mode: 0o600 });
	try {
		for (let attempt = 0; ; attempt++) {
			if (await tryLink(temporary, lockPath)) break;
			const current = await readLock(lockPath);
			if (current === "missing") continue; // released in between: try again
			if (current === "not-a-file") throw notAFile(source, lockPath);
			if (current !== "unreadable" && isLive(current)) throw new SessionLockedError(source, describe(current));
			if (attempt >= 5) {
				// Still stale after several takeovers: another process keeps winning the takeover.
				const who = current === "unreadable" ? `an unreadable lock file ${lockPath}` : `${describe(current).description}, whose lock another process is taking over`;
				throw new SessionLockedError(source, current === "unreadable" ? { description: who } : { ...describe(current), description: who });
			}
			await takeOver(lockPath, current, temporary);
			const now = await readLock(lockPath);
			if (typeof now === "object" && now.token === record.token) break;
			// Someone else is taking over: give them a moment before looking again.
			await new Promise((resolve) => setTimeout(resolve, 10 * (attempt + 1)));
		}
	} finally {
		await unlink(temporary).catch(() => {});
	}
	held.set(lockPath, record.token);
	installExitHook();
	let released = false;
	return {
		async release() {
			if (released) return;
			released = true;
			held.delete(lockPath);
			const current = await readLock(lockPath);
			if (typeof current === "object" && current.token === record.token) await unlink(lockPath).catch(() => {});
		},
	};
}

async function tryLink(from: string, to: string): Promise<boolean> {
	try {
		await link(from, to);
		return true;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
		throw error;
	}
}

/** The longest lock file read: a real one is about 150 bytes. */
const MAX_LOCK_BYTES = 4096;

/**
 * Reads the lock at `lockPath`. `not-a-file` for a symlink, FIFO, device or folder there: opened
 * without following links and without blocking, so a FIFO planted as the lock cannot hang the open.
 */
async function readLock(lockPath: string): Promise<LockRecord | "missing" | "unreadable" | "not-a-file"> {
	let text: string;
	try {
		const handle = await open(lockPath, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
		try {
			if (!(await handle.stat()).isFile()) return "not-a-file";
			const buffer = Buffer.alloc(MAX_LOCK_BYTES);
			const { bytesRead } = await handle.read(buffer, 0, MAX_LOCK_BYTES, 0);
			text = buffer.toString("utf8", 0, bytesRead);
		} finally {
			await handle.close();
		}
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT") return "missing";
		// ELOOP: O_NOFOLLOW met a symlink.
		if (code === "ELOOP" || code === "EISDIR" || code === "ENXIO") return "not-a-file";
		throw error;
	}
	try {
		const value = JSON.parse(text) as Partial<LockRecord>;
		if (typeof value.pid === "number" && typeof value.hostname === "string" && typeof value.token === "string") return value as LockRecord;
	} catch {
		// fall through
	}
	return "unreadable";
}

/**
 * True unless the holder is known to be gone: a process on this host that no longer exists,
 * or this very process without the lock in its table (a pid reused after a restart). A holder
 * on another host cannot be checked and counts as live.
 */
function isLive(record: LockRecord): boolean {
	if (record.hostname !== hostname()) return true;
	if (record.pid === process.pid) return [...held.values()].includes(record.token);
	try {
		process.kill(record.pid, 0);
		return true;
	} catch (error) {
		// EPERM: the process exists but belongs to another user.
		return (error as NodeJS.ErrnoException).code === "EPERM";
	}
}

/**
 * Replaces a stale lock by ours. Two processes may find the same stale lock: the takeover
 * marker (a directory, created atomically) lets one of them at a time remove and re-link it.
 */
async function takeOver(lockPath: string, stale: LockRecord | "unreadable", ours: string): Promise<void> {
	const marker = `${lockPath}.takeover`;
	try {
		await mkdir(marker);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
		const age = await stat(marker).then((info) => Date.now() - info.mtimeMs, () => 0);
		if (age > STALE_TAKEOVER_MS) await rmdir(marker).catch(() => {});
		return; // someone else is taking over: the caller looks again
	}
	try {
		const current = await readLock(lockPath);
		const same = current === "unreadable" ? stale === "unreadable" : typeof current === "object" && typeof stale === "object" && current.token === stale.token;
		if (same) {
			await unlink(lockPath).catch(() => {});
			await tryLink(ours, lockPath);
		}
	} finally {
		await rmdir(marker).catch(() => {});
	}
}

function notAFile(source: string, lockPath: string): SessionLockedError {
	return new SessionLockedError(source, { description: `${lockPath}, which is not a regular file (a symlink, a FIFO or a folder): remove it by hand once no process uses the session` });
}

function describe(record: LockRecord, who = `process ${record.pid}`): SessionLockHolder {
	const since = record.since ? ` since ${record.since}` : "";
	return { pid: record.pid, hostname: record.hostname, description: `${who} (pid ${record.pid} on ${record.hostname})${since}` };
}

/** Removes the locks still held when the process exits normally (a crash leaves them: taken over later). */
function installExitHook(): void {
	if (exitHookInstalled) return;
	exitHookInstalled = true;
	process.once("exit", () => {
		for (const path of held.keys()) {
			try {
				unlinkSync(path);
			} catch {
				// already gone
			}
		}
	});
}
