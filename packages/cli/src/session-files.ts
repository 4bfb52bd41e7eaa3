/**
 * Where conversations live: one JSONL session file per conversation (the format of
 * `@pi/agent-core`, docs/sessions.md) in `<data folder>/sessions/`, named `<id>.jsonl`. The id is
 * the session id in the file's header, so `pi-ai show ID`, the file name and the header agree.
 *
 * Ids are the creation time in UTC plus four random hex digits (`20261201-210503-a1b2`): they sort
 * by age, read at a glance, and a unique prefix is enough to name one.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { CliError } from "./cli-error.js";
import { dataDir } from "./paths.js";

/** The sessions folder. */
export function sessionsDir(): string {
	return join(dataDir(), "sessions");
}

/** A session file in the sessions folder. */
export interface SessionFile {
	id: string;
	path: string;
	/** Last change (the last append), Unix milliseconds. */
	modifiedMs: number;
}

/** A new id for `now`. */
export function newSessionId(now = new Date()): string {
	const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
	return `${stamp}-${randomBytes(2).toString("hex")}`;
}

/**
 * Creates a new, empty session file (just its header line, in the pinned format) and returns its
 * id and path. Creation is exclusive (`wx`): two prompts in the same second never share a file.
 */
export function createSessionFile(): { id: string; path: string } {
	const dir = sessionsDir();
	mkdirSync(dir, { recursive: true, mode: 0o700 });
	for (;;) {
		const now = new Date();
		const id = newSessionId(now);
		const path = join(dir, `${id}.jsonl`);
		try {
			// Conversations are private: mode 600, like the keys file.
			writeFileSync(path, `${JSON.stringify({ type: "session", version: 1, id, timestamp: now.getTime() })}\n`, { flag: "wx", mode: 0o600 });
			return { id, path };
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw new CliError(`cannot create a session file in ${dir}: ${(error as Error).message}`);
		}
	}
}

/** Every session file, newest change first. */
export function sessionFilesByChange(): SessionFile[] {
	const dir = sessionsDir();
	let names: string[];
	try {
		names = readdirSync(dir);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
		throw new CliError(`cannot read ${dir}: ${(error as Error).message}`);
	}
	const files: SessionFile[] = [];
	for (const name of names) {
		if (!name.endsWith(".jsonl")) continue;
		const path = join(dir, name);
		try {
			files.push({ id: name.slice(0, -".jsonl".length), path, modifiedMs: statSync(path).mtimeMs });
		} catch {
			// Removed between readdir and stat: not a session any more.
		}
	}
	return files.sort((a, b) => b.modifiedMs - a.modifiedMs || b.id.localeCompare(a.id));
}

/** The most recently changed session, for `-c`. */
export function lastSessionFile(): SessionFile | undefined {
	return sessionFilesByChange()[0];
}

/** Whether `ref` names a file rather than an id: it has a path separator or ends in `.jsonl`. */
export function isSessionPath(ref: string): boolean {
	return ref.includes("/") || ref.includes("\\") || ref.endsWith(".jsonl");
}

/**
 * The file `--session ID|PATH` or `pi-ai show ID|PATH` names. A path is taken as given (and may
 * not exist yet, for `--session`); an id must be a session's id or a unique prefix of one.
 */
export function resolveSessionRef(ref: string): { id: string; path: string } {
	if (isSessionPath(ref)) {
		const path = resolve(ref);
		return { id: basename(path, ".jsonl"), path };
	}
	const files = sessionFilesByChange();
	const exact = files.find((file) => file.id === ref);
	if (exact) return exact;
	const matches = files.filter((file) => file.id.startsWith(ref));
	if (matches.length === 1 && matches[0]) return matches[0];
	if (matches.length > 1) throw new CliError(`session id ${ref} is ambiguous: ${matches.slice(0, 5).map((file) => file.id).join(", ")}${matches.length > 5 ? ", …" : ""}`);
	throw new CliError(`no session ${ref} in ${sessionsDir()} (pi-ai sessions lists them)`);
}
