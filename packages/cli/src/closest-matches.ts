/**
 * "Did you mean …?" for a mistyped model id or provider: the candidates closest to what was typed.
 * A candidate containing the typed text comes first (typing `haiku` finds every Haiku), then the
 * others by edit distance, and only those near enough to be plausible.
 */

/** Levenshtein distance between `a` and `b`, in O(|a|·|b|) time and O(|b|) memory. */
export function editDistance(a: string, b: string): number {
	let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
	for (let i = 1; i <= a.length; i++) {
		const current = [i];
		for (let j = 1; j <= b.length; j++) {
			const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
			current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
		}
		previous = current;
	}
	return previous[b.length] ?? 0;
}

/**
 * Up to `limit` candidates closest to `typed` (case-insensitive), best first. `compareOn` picks
 * the part of a candidate to compare (the id of a `provider/id`, say).
 *
 * @example
 * closestMatches("claude-haiku-45", ["claude-haiku-4-5", "gpt-4o"]) // ["claude-haiku-4-5"]
 */
export function closestMatches(typed: string, candidates: readonly string[], limit = 3, compareOn: (candidate: string) => string = (candidate) => candidate): string[] {
	const needle = typed.toLowerCase();
	const scored: { candidate: string; score: number }[] = [];
	// Near enough: at most a quarter of the typed length in edits (and at least 2, for short names).
	const maxDistance = Math.max(2, Math.floor(needle.length / 4));
	for (const candidate of candidates) {
		const hay = compareOn(candidate).toLowerCase();
		if (needle.length >= 3 && hay.includes(needle)) {
			// Containing matches rank before every edit-distance match, shorter ones first.
			scored.push({ candidate, score: -1000 + (hay.length - needle.length) });
			continue;
		}
		// A typo in the start of a longer id ("claude-hiku" for "claude-haiku-4-5") is near too: compare
		// with the id's prefixes around the typed length as well, at one edit's penalty.
		let distance = editDistance(needle, hay);
		for (let length = Math.max(1, needle.length - 2); length <= needle.length + 2 && length < hay.length; length++) {
			distance = Math.min(distance, editDistance(needle, hay.slice(0, length)) + 1);
		}
		if (distance <= maxDistance) scored.push({ candidate, score: distance });
	}
	scored.sort((x, y) => x.score - y.score || x.candidate.localeCompare(y.candidate));
	return scored.slice(0, limit).map((entry) => entry.candidate);
}
