/**
 * Every library the peer comparison runs (issue 16): ours, pi-ai 0.73.1, pi-ai 1.6.0 (its
 * `/compat` entry, the same `stream(model, context, options)` surface), the Vercel AI SDK 7
 * (`streamText` with `@ai-sdk/openai`, `anthropic`, `google`) and the decoding floor
 * (`eventsource-parser` plus one `JSON.parse` per event, nothing else: no content is built).
 */

/** @typedef {"ours" | "ref" | "pi16" | "aisdk" | "floor"} PeerSide */

/** @type {Record<PeerSide, { label: string }>} */
export const PEERS = {
	ours: { label: "@pi/ai" },
	ref: { label: "pi-ai 0.73.1" },
	pi16: { label: "pi-ai 1.6.0" },
	aisdk: { label: "AI SDK 7" },
	floor: { label: "floor" },
};

/** All sides in report order. @type {PeerSide[]} */
export const PEER_SIDES = ["ours", "ref", "pi16", "aisdk", "floor"];

/** The peers proper (not ours, not the floor). @type {PeerSide[]} */
export const RIVALS = ["ref", "pi16", "aisdk"];

/**
 * The run order for `round`: the list rotated by the round number, so no side always goes first
 * (or last, on a warmer machine).
 * @param {number} round
 * @returns {PeerSide[]}
 */
export function rotated(round) {
	const k = round % PEER_SIDES.length;
	return [...PEER_SIDES.slice(k), ...PEER_SIDES.slice(0, k)];
}

/**
 * Whether `got` decoded all the content `want` (ours, checked by the conformance suites) did:
 * text, thinking and tool-argument characters within 1 % and the same number of tool calls.
 * Returns the list of what is missing, empty when nothing is.
 * @param {any} want
 * @param {any} got
 * @returns {string[]}
 */
export function missingContent(want, got) {
	const missing = [];
	for (const key of ["text", "thinking", "argsChars"]) {
		if (want[key] > 0 && !(got[key] >= want[key] * 0.99)) missing.push(`${key} ${got[key] ?? 0} of ${want[key]}`);
	}
	if (got.toolCalls !== want.toolCalls) missing.push(`toolCalls ${got.toolCalls ?? 0} of ${want.toolCalls}`);
	return missing;
}
