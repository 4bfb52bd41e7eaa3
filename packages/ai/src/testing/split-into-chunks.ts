import { seededRandom } from "../utils/seeded-random.js";

export { seededRandom };

/** How {@link splitIntoChunks} cuts a body. Every field is optional. */
export interface ChunkingOptions {
	/** Seed of the pseudo-random generator: the same seed gives the same cuts. Default `1`. */
	seed?: number;
	/** Smallest chunk, in bytes (an integer ≥ 1). Default `1`. */
	minChunkBytes?: number;
	/** Largest chunk, in bytes (an integer ≥ `minChunkBytes`). Default `64`. */
	maxChunkBytes?: number;
	/**
	 * Share of cuts (0..1) moved onto an awkward boundary when one lies within reach: inside a
	 * multi-byte UTF-8 character, or between the `\r` and `\n` of a CRLF pair. Plain random sizes hit
	 * those boundaries too rarely to catch a decoder or SSE parser that mishandles them. Default `0.25`.
	 */
	awkwardCutRate?: number;
}

/**
 * Cuts `bytes` into pseudo-random chunks, as a network might deliver them. The chunks are views
 * into `bytes` (no copies) and concatenate back to exactly `bytes`; an empty input gives no chunks.
 *
 * Deterministic for a given seed, so a failing chunking can be replayed. About a quarter of the
 * cuts (see `awkwardCutRate`) deliberately split a multi-byte UTF-8 character or a CRLF pair.
 *
 * Throws a `RangeError` for sizes that are not integers or a `min` above `max`.
 *
 * @example
 * ```ts
 * const chunks = splitIntoChunks(new TextEncoder().encode("data: héllo\r\n\r\n"), { seed: 7, maxChunkBytes: 4 });
 * for (const chunk of chunks) parser.feed(decoder.decode(chunk, { stream: true }));
 * ```
 */
export function splitIntoChunks(bytes: Uint8Array, options: ChunkingOptions = {}): Uint8Array[] {
	const min = options.minChunkBytes ?? 1;
	const max = options.maxChunkBytes ?? 64;
	const awkwardRate = options.awkwardCutRate ?? 0.25;
	if (!Number.isInteger(min) || min < 1) throw new RangeError(`minChunkBytes must be an integer ≥ 1, got ${min}`);
	if (!Number.isInteger(max) || max < min) throw new RangeError(`maxChunkBytes must be an integer ≥ minChunkBytes (${min}), got ${max}`);
	if (!(awkwardRate >= 0 && awkwardRate <= 1)) throw new RangeError(`awkwardCutRate must be between 0 and 1, got ${awkwardRate}`);

	const random = seededRandom(options.seed ?? 1);
	const chunks: Uint8Array[] = [];
	let position = 0;
	while (position < bytes.length) {
		let cut = Math.min(bytes.length, position + min + Math.floor(random() * (max - min + 1)));
		if (cut < bytes.length && random() < awkwardRate) {
			const awkward = firstAwkwardCut(bytes, position + min, Math.min(position + max, bytes.length - 1));
			if (awkward !== undefined) cut = awkward;
		}
		chunks.push(bytes.subarray(position, cut));
		position = cut;
	}
	return chunks;
}

/**
 * The first position in `from..to` where a cut splits a UTF-8 character (the byte after the cut
 * is a continuation byte `10xxxxxx`) or a CRLF pair.
 */
function firstAwkwardCut(bytes: Uint8Array, from: number, to: number): number | undefined {
	for (let cut = from; cut <= to; cut++) {
		const after = bytes[cut] as number;
		if ((after & 0xc0) === 0x80) return cut;
		if (after === 0x0a && bytes[cut - 1] === 0x0d) return cut;
	}
	return undefined;
}
