/**
 * Reading a session file backwards from its end: where the last line starts, and where the
 * file must be cut so that it ends in complete, readable lines.
 */
import type { FileHandle } from "node:fs/promises";
import { groupRemainingOf, parseEntry } from "./jsonl-format.js";

const CHUNK_BYTES = 64 * 1024;
const NEWLINE = 0x0a;

/** The offset where the line that ends just before `end` starts (0 when it is the first line). */
export async function lineStartBefore(file: FileHandle, end: number): Promise<number> {
	const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
	// The byte at end - 1 is the line's own newline (or its last byte when the line is torn).
	let position = end - 1;
	while (position > 0) {
		const from = Math.max(0, position - CHUNK_BYTES);
		const length = position - from;
		const { bytesRead } = await file.read(chunk, 0, length, from);
		const index = chunk.subarray(0, bytesRead).lastIndexOf(NEWLINE);
		if (index >= 0) return from + index + 1;
		position = from;
	}
	return 0;
}

/** Reads bytes `[start, end)` as UTF-8. */
export async function readText(file: FileHandle, start: number, end: number): Promise<string> {
	const buffer = Buffer.allocUnsafe(end - start);
	let done = 0;
	while (done < buffer.length) {
		const { bytesRead } = await file.read(buffer, done, buffer.length - done, start + done);
		if (bytesRead === 0) break;
		done += bytesRead;
	}
	return buffer.toString("utf8", 0, done);
}

/**
 * Where a file of `size` bytes must end to hold only complete lines and complete groups: a last
 * line without its newline is torn (a complete line is never dropped, whatever it holds: a line
 * that does not parse is corruption, for the reader to report), and a group whose last complete
 * line says more entries follow (see `jsonl-format.ts`) was cut short, so all of it goes.
 * `headerEnd` is where the entries start (0 when unknown: the first line is then never dropped
 * here). Lines over `maxLineBytes` are not read here; the reader reports them.
 */
export async function repairPoint(file: FileHandle, size: number, maxLineBytes: number): Promise<{ end: number; dropped: boolean }> {
	if (size === 0) return { end: 0, dropped: false };
	const last = Buffer.allocUnsafe(1);
	await file.read(last, 0, 1, size - 1);
	let end = size;
	let dropped = false;
	if (last[0] !== NEWLINE) {
		end = await lineStartBefore(file, size);
		dropped = true;
	}
	// Walk back over the members of a group cut short: the last complete line says k entries
	// follow, the one before it k + 1, and so on up to the group's first line.
	let expected: number | undefined;
	while (end > 0) {
		const start = await lineStartBefore(file, end);
		if (start === 0 || end - 1 - start > maxLineBytes) break; // the header, or a line the reader reports
		const remaining = groupRemainingOf(await readText(file, start, end - 1));
		if (remaining === undefined || remaining === 0 || (expected !== undefined && remaining !== expected)) break;
		end = start;
		dropped = true;
		expected = remaining + 1;
	}
	return { end, dropped };
}

/**
 * The id of the last entry of a file that ends at `end` in a complete line after the header
 * at `[0, headerEnd)`: `null` when the header is the last line.
 */
export async function lastEntryId(file: FileHandle, end: number, headerEnd: number): Promise<string | null | undefined> {
	if (end <= headerEnd) return null;
	const start = await lineStartBefore(file, end);
	const entry = parseEntry(await readText(file, start, end - 1));
	return typeof entry === "string" ? undefined : entry.id;
}
