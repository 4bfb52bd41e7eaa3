/**
 * A seeded pseudo-random generator (mulberry32): tiny, fast, 32-bit, reproducible. Returns values
 * in [0, 1). Used where runs must repeat exactly: the faux provider's delta sizes and the replay
 * server's chunkings. Not for anything that needs real randomness.
 */
export function seededRandom(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}
