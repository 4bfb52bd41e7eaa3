/**
 * Streams the lines of a file region, each with its 1-based line number and byte offset, in
 * large chunks: memory holds one chunk and the line being read, never the whole file.
 */
import type { FileHandle } from "node:fs/promises";
import { SessionCorruptError } from "../session/session-errors.js";

/** One line of a JSONL file, without its newline. */
export interface FileLine {
	text: string;
	/** 1-based line number. */
	line: number;
	/** Byte offset of the line's first byte. */
	offset: number;
}

const CHUNK_BYTES = 1 << 20;
const NEWLINE = 0x0a;

/** The default bound on one line of a session file: far above any real entry, below V8's longest string. */
export const DEFAULT_MAX_LINE_BYTES = 128 * 1024 * 1024;

/**
 * Yields the complete lines of `file` between `start` and `end` (bytes). `end` must fall just
 * after a newline (the caller repaired the tail); `firstLine` numbers the line at `start`. A line
 * longer than `maxLineBytes` rejects with `SessionCorruptError` naming `source`, the line and its
 * offset, before it is held in memory whole.
 */
export async function* readFileLines(file: FileHandle, start: number, end: number, firstLine: number, source: string, maxLineBytes = DEFAULT_MAX_LINE_BYTES): AsyncGenerator<FileLine> {
	const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, Math.max(end - start, 1)));
	let position = start;
	let line = firstLine;
	// Bytes of a line that began in an earlier chunk.
	let carry: Buffer[] = [];
	let carried = 0;
	let lineStart = start;
	const tooLong = () => new SessionCorruptError({ source, line, byteOffset: lineStart }, `line ${line} is longer than ${maxLineBytes} bytes (maxLineBytes)`);
	while (position < end) {
		const { bytesRead } = await file.read(chunk, 0, Math.min(chunk.length, end - position), position);
		if (bytesRead === 0) break;
		let from = 0;
		for (;;) {
			const newline = chunk.indexOf(NEWLINE, from);
			if (newline < 0 || newline >= bytesRead) break;
			let text: string;
			if (carried + newline - from > maxLineBytes) throw tooLong();
			if (carry.length > 0) {
				carry.push(chunk.subarray(from, newline));
				text = Buffer.concat(carry).toString("utf8");
				carry = [];
				carried = 0;
			} else {
				text = chunk.toString("utf8", from, newline);
			}
			yield { text, line, offset: lineStart };
			line++;
			from = newline + 1;
			lineStart = position + from;
		}
		// The rest of the chunk belongs to a line that goes on in the next chunk: copy it, since
		// the chunk buffer is reused.
		if (from < bytesRead) {
			carried += bytesRead - from;
			if (carried > maxLineBytes) throw tooLong();
			carry.push(Buffer.from(chunk.subarray(from, bytesRead)));
		}
		position += bytesRead;
	}
}
