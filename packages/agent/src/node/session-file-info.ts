/**
 * What a listing of session files shows (a CLI's `sessions` command, a UI's history): id,
 * dates, model, first line and cost, read without taking the lock and without building the
 * tree. Every line is parsed (a search for substrings such as `"type":"message"` would miss a
 * file written with other spacing, and can be fooled by a message that quotes one).
 */
import { constants } from "node:fs";
import { open, readdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { SessionCorruptError } from "../session/session-errors.js";
import type { SessionModelRef } from "../session/session-entry.js";
import { repairPoint } from "./file-tail.js";
import { parseEntry, parseHeader } from "./jsonl-format.js";
import { DEFAULT_MAX_LINE_BYTES, readFileLines } from "./jsonl-lines.js";

/** A summary of one session file. */
export interface SessionFileInfo {
	path: string;
	id: string;
	/** The header's timestamp (Unix milliseconds). */
	createdAt: number;
	/** The last entry's timestamp, or `createdAt` for an empty session. */
	updatedAt: number;
	entryCount: number;
	messageCount: number;
	/** The last `model_change`, else the last reply's provider/model, in log order. */
	model: SessionModelRef | undefined;
	/** The first line of the first user message's text (at most 200 characters). */
	firstLine: string | undefined;
	/** The sum of every reply's `usage.cost.total`, all branches included (what was spent). */
	cost: number;
}

const FIRST_LINE_MAX = 200;

/**
 * Summarises the session file at `path`. A torn last line is ignored (not repaired: no lock is
 * taken); corruption elsewhere rejects with `SessionCorruptError`.
 *
 * @example
 * ```ts
 * const info = await readSessionFileInfo("chats/42.jsonl");
 * console.log(info.id, new Date(info.updatedAt), info.model?.modelId, info.firstLine, info.cost.toFixed(4));
 * ```
 */
export async function readSessionFileInfo(path: string): Promise<SessionFileInfo> {
	const absolute = resolve(path);
	// Without blocking: a FIFO named *.jsonl would otherwise hang the listing.
	const file = await open(absolute, constants.O_RDONLY | constants.O_NONBLOCK);
	try {
		const stats = await file.stat();
		if (!stats.isFile()) throw new SessionCorruptError({ source: absolute }, "not a regular file (a FIFO, a device or a folder)");
		const size = stats.size;
		const { end } = await repairPoint(file, size, DEFAULT_MAX_LINE_BYTES);
		const info: SessionFileInfo = { path: absolute, id: "", createdAt: 0, updatedAt: 0, entryCount: 0, messageCount: 0, model: undefined, firstLine: undefined, cost: 0 };
		let changedModel: SessionModelRef | undefined;
		let replyModel: SessionModelRef | undefined;
		for await (const line of readFileLines(file, 0, end, 1, absolute)) {
			if (line.line === 1) {
				const header = parseHeader(line.text);
				if (typeof header === "string") throw new SessionCorruptError({ source: absolute, line: 1, byteOffset: 0 }, header);
				info.id = header.id;
				info.createdAt = typeof header.timestamp === "number" ? header.timestamp : Date.parse(String(header.timestamp)) || 0;
				info.updatedAt = info.createdAt;
				continue;
			}
			const entry = parseEntry(line.text);
			if (typeof entry === "string") throw new SessionCorruptError({ source: absolute, line: line.line, byteOffset: line.offset }, entry);
			info.entryCount++;
			info.updatedAt = entry.timestamp;
			if (entry.type === "model_change") changedModel = { provider: entry.provider, modelId: entry.modelId };
			if (entry.type !== "message") continue;
			info.messageCount++;
			const message = entry.message as { role?: unknown; provider?: unknown; model?: unknown; usage?: { cost?: { total?: unknown } }; content?: unknown };
			if (message.role === "assistant") {
				replyModel = { provider: String(message.provider), modelId: String(message.model) };
				const cost = message.usage?.cost?.total;
				if (typeof cost === "number" && Number.isFinite(cost)) info.cost += cost;
			} else if (message.role === "user" && info.firstLine === undefined) {
				info.firstLine = firstLineOf(message.content);
			}
		}
		if (info.id === "") throw new SessionCorruptError({ source: absolute, line: 1, byteOffset: 0 }, "the file has no session header");
		info.model = changedModel ?? replyModel;
		return info;
	} finally {
		await file.close();
	}
}

/** One file of {@link listSessionFiles}: its summary, or why it could not be read. */
export type SessionFileListing = { path: string; info: SessionFileInfo; error?: undefined } | { path: string; info?: undefined; error: Error };

/**
 * Summarises every `*.jsonl` file in `folder`, most recently updated first. A file that cannot
 * be read is listed with its error rather than skipped. A missing folder lists nothing.
 *
 * @example
 * ```ts
 * for (const { path, info, error } of await listSessionFiles("chats")) console.log(info ? info.firstLine : `${path}: ${error.message}`);
 * ```
 */
export async function listSessionFiles(folder: string): Promise<SessionFileListing[]> {
	let names: string[];
	try {
		names = await readdir(folder);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
		throw error;
	}
	const listings = await Promise.all(
		names
			.filter((name) => name.endsWith(".jsonl"))
			.map(async (name): Promise<SessionFileListing> => {
				const path = resolve(join(folder, name));
				try {
					return { path, info: await readSessionFileInfo(path) };
				} catch (error) {
					return { path, error: error instanceof Error ? error : new Error(String(error)) };
				}
			}),
	);
	return listings.sort((a, b) => (b.info?.updatedAt ?? 0) - (a.info?.updatedAt ?? 0) || a.path.localeCompare(b.path));
}

function firstLineOf(content: unknown): string | undefined {
	const text = typeof content === "string" ? content : Array.isArray(content) ? content.map((block: { type?: string; text?: string }) => (block.type === "text" ? (block.text ?? "") : "")).join("") : "";
	const line = text.trim().split("\n")[0]?.trim();
	if (!line) return undefined;
	return line.length > FIRST_LINE_MAX ? `${line.slice(0, FIRST_LINE_MAX - 1)}…` : line;
}
