/**
 * The session file format (pinned; docs/sessions.md): line 1 is the header
 * `{"type":"session","version":1,"id":"…","timestamp":…}`, every other line one entry. The
 * entries of one append of several are a group: every line of the group but its last carries
 * `"groupRemaining": k`, the number of the group's entries written after it, so that opening can
 * tell a group cut short (its last line says more follow) and drop all of it.
 */
import { entryShapeProblem } from "../session/check-entry.js";
import type { SessionEntry } from "../session/session-entry.js";

/** The format version this library writes. */
export const SESSION_FILE_VERSION = 1;

/** Line 1 of a session file. */
export interface SessionFileHeader {
	type: "session";
	version: number;
	id: string;
	/** When the session was created, Unix milliseconds. */
	timestamp: number;
	/** pi's coding agent writes the working directory; kept when present. */
	cwd?: string;
}

/** The header line of a new session, with its newline. */
export function headerLine(id: string, timestamp: number): string {
	const header: SessionFileHeader = { type: "session", version: SESSION_FILE_VERSION, id, timestamp };
	return `${JSON.stringify(header)}\n`;
}

/** The field that marks the lines of a group (see the file's comment); never part of an entry. */
export const GROUP_FIELD = "groupRemaining";

/** Longest header line accepted: a longer first line is not a session header. */
export const MAX_HEADER_BYTES = 64 * 1024;

/**
 * The lines of one append, as one string: one JSON object and a newline per entry, every line
 * but the last of a group of several marked with how many of the group's entries follow it.
 */
export function entryLines(entries: readonly SessionEntry[]): string {
	let text = "";
	const last = entries.length - 1;
	for (let index = 0; index <= last; index++) {
		const json = JSON.stringify(entries[index]);
		// An entry serializes to an object, so the mark goes just before its closing brace.
		text += index < last ? `${json.slice(0, -1)},"${GROUP_FIELD}":${last - index}}\n` : `${json}\n`;
	}
	return text;
}

/** The group mark of a line (`0` when it has none), or `undefined` when the line is not JSON. */
export function groupRemainingOf(text: string): number | undefined {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return undefined;
	}
	const remaining = (value as Record<string, unknown> | null)?.[GROUP_FIELD];
	return typeof remaining === "number" && Number.isInteger(remaining) && remaining > 0 ? remaining : 0;
}

/**
 * True when `text`, a first line without its newline, can be the start of a header cut off by a
 * crash while a new file was written; anything else is not a session file.
 */
export function isTornHeader(text: string): boolean {
	const start = '{"type":"session"';
	return text.length < start.length ? start.startsWith(text) : text.startsWith(start);
}

/** Parses a header line, or returns why it is not one. */
export function parseHeader(text: string): SessionFileHeader | string {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return "line 1 is not JSON (a session file starts with a session header)";
	}
	const header = value as Partial<SessionFileHeader> | null;
	if (typeof header !== "object" || header === null || header.type !== "session") return 'line 1 is not a session header ({"type":"session",…})';
	if (typeof header.id !== "string" || header.id === "") return 'the session header has no "id" string';
	// pi's coding agent writes versions 2 and 3 with the same tree of entries.
	if (header.version !== undefined && (typeof header.version !== "number" || header.version < 1 || header.version > 3)) {
		return `unsupported session file version ${JSON.stringify(header.version)} (this library reads 1 to 3)`;
	}
	return header as SessionFileHeader;
}

/** Parses an entry line, or returns why it is not an entry. */
export function parseEntry(text: string): SessionEntry | string {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		return `not JSON (${(error as Error).message})`;
	}
	// pi's coding agent writes ISO date strings; entries here carry Unix milliseconds.
	const record = value as { timestamp?: unknown; [GROUP_FIELD]?: unknown } | null;
	if (typeof record === "object" && record !== null) {
		if (typeof record.timestamp === "string") {
			const parsed = Date.parse(record.timestamp);
			if (!Number.isNaN(parsed)) record.timestamp = parsed;
		}
		if (GROUP_FIELD in record) delete record[GROUP_FIELD];
	}
	return entryShapeProblem(value) ?? (value as SessionEntry);
}
