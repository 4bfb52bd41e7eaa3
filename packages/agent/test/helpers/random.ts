/**
 * A seeded generator for property and fuzz tests (xorshift32): a failing seed reruns exactly.
 * Values in [0, 1).
 */
export function seeded(seed: number): () => number {
	let state = seed >>> 0 || 1;
	return () => {
		state ^= state << 13;
		state >>>= 0;
		state ^= state >>> 17;
		state ^= state << 5;
		state >>>= 0;
		return state / 4294967296;
	};
}
