/** Reads a session file's lines as a test sees them: the header, then the entries. */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface SessionLines {
	header: { type: string; version: number; id: string; timestamp: number };
	entries: Record<string, any>[];
}

export function readSessionFile(path: string): SessionLines {
	const [header, ...entries] = readFileSync(path, "utf8")
		.trimEnd()
		.split("\n")
		.map((line) => JSON.parse(line));
	return { header, entries };
}

/** The session files in a data home's sessions folder. */
export function sessionFiles(dataHome: string): string[] {
	const dir = join(dataHome, "pi-ai", "sessions");
	try {
		return readdirSync(dir)
			.filter((name) => name.endsWith(".jsonl"))
			.map((name) => join(dir, name));
	} catch {
		return [];
	}
}

/** The messages of a session file, in log order. */
export function messagesOf(path: string): Record<string, any>[] {
	return readSessionFile(path)
		.entries.filter((entry) => entry.type === "message")
		.map((entry) => entry.message);
}
