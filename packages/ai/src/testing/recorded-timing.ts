import type { RecordedChunk } from "./cassette-store.js";

/**
 * Replay a body in the chunks it was recorded in, waiting the recorded time before each one.
 * Set on a `ScriptedResponse` as `recordedTiming`; cassettes fill it in when served with
 * `timing: "recorded"`.
 */
export interface RecordedTiming {
	/** The chunks as recorded: `[bytes, milliseconds since the previous chunk or the headers]`. */
	chunks: readonly RecordedChunk[];
	/** Milliseconds from the request to the headers, when recorded. */
	headersAfterMs?: number;
	/**
	 * Multiplies every recorded wait: `1` is real time, `0.1` ten times faster, `0` keeps the chunk
	 * boundaries without waiting. Default `1`.
	 */
	timeScale?: number;
}

/** One piece of a body to write, and how long to wait before writing it. */
export interface TimedPiece {
	chunk: Uint8Array;
	beforeMs: number;
}

/**
 * Cuts `body` at the recorded chunk boundaries, with the recorded waits scaled by `timeScale`.
 * The chunks may describe more bytes than `body` holds (a fault cut the body short): the pieces
 * stop where `body` ends. Views, no copies.
 */
export function recordedPieces(body: Uint8Array, timing: RecordedTiming): TimedPiece[] {
	const scale = timing.timeScale ?? 1;
	const pieces: TimedPiece[] = [];
	let position = 0;
	for (const [size, afterMs] of timing.chunks) {
		if (position >= body.length) break;
		const end = Math.min(body.length, position + size);
		pieces.push({ chunk: body.subarray(position, end), beforeMs: afterMs * scale });
		position = end;
	}
	// Bytes the timing does not cover (it should cover all) still go out, in one last piece.
	if (position < body.length) pieces.push({ chunk: body.subarray(position), beforeMs: 0 });
	return pieces;
}

/** The wait before the headers, scaled; 0 when not recorded. */
export function headersDelay(timing: RecordedTiming | undefined): number {
	if (!timing?.headersAfterMs) return 0;
	return timing.headersAfterMs * (timing.timeScale ?? 1);
}
