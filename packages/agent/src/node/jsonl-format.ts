/**
 * The session file format (pinned; docs/sessions.md): line 1 is the header
 * `{"type":"session","version":1,"id":"…","timestamp":…}`, every other line one entry.
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

/** The lines of one append, as one string: one JSON object and a newline per entry. */
export function entryLines(entries: readonly SessionEntry[]): string {
	let text = "";
	for (const entry of entries) text += `${JSON.stringify(entry)}\n`;
	return text;
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
	const record = value as { timestamp?: unknown } | null;
	if (typeof record === "object" && record !== null && typeof record.timestamp === "string") {
		const parsed = Date.parse(record.timestamp);
		if (!Number.isNaN(parsed)) record.timestamp = parsed;
	}
	return entryShapeProblem(value) ?? (value as SessionEntry);
}
