/**
 * The two libraries under comparison, by the module names each side imports. Ours resolve through
 * the packages' `import` condition, i.e. the built `dist/` (never the `development` condition that
 * points at TypeScript sources), exactly as an application would load them.
 */

/** @typedef {"ours" | "ref"} Side */

/** @type {Record<Side, { label: string, ai: string, agent: string }>} */
export const LIBRARIES = {
	ours: { label: "@pi/ai", ai: "@pi/ai", agent: "@pi/agent-core" },
	ref: { label: "pi-ai 0.73.1", ai: "@mariozechner/pi-ai", agent: "@mariozechner/pi-agent-core" },
};

/** The version of the reference packages installed as dev dependencies (see bench/package.json). */
export const REFERENCE_VERSION = "0.73.1";

/** Both sides, ours first. @type {Side[]} */
export const SIDES = ["ours", "ref"];

/**
 * The order of runs for round `round`: ours first on even rounds, the reference first on odd ones,
 * so neither side always runs on a warmer (or hotter) machine.
 * @param {number} round
 * @returns {Side[]}
 */
export function interleaved(round) {
	return round % 2 === 0 ? ["ours", "ref"] : ["ref", "ours"];
}
