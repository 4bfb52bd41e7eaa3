/**
 * Summaries of repeated measurements: the median with the min–max spread, and the ratio of two
 * summaries. Medians resist the outliers a shared 2-core machine produces; the spread shows them.
 */

/**
 * Summarises samples.
 * @param {number[]} samples at least one finite number
 * @returns {{ median: number, min: number, max: number, runs: number, samples: number[] }}
 * @example summarize([3, 1, 2]) // { median: 2, min: 1, max: 3, runs: 3, samples: [3, 1, 2] }
 */
export function summarize(samples) {
	if (samples.length === 0) throw new Error("summarize: no samples");
	const sorted = [...samples].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	const median = sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
	return { median, min: sorted[0], max: sorted[sorted.length - 1], runs: samples.length, samples };
}

/**
 * How many times better ours is, given which direction is better. Ratios above 1 favour ours.
 * @param {number} ours median of ours
 * @param {number} ref median of the reference
 * @param {"lower" | "higher"} better which direction is better for this metric
 * @returns {number | null} null when either value is missing or a divisor is 0
 */
export function advantage(ours, ref, better) {
	if (!Number.isFinite(ours) || !Number.isFinite(ref)) return null;
	if (better === "lower") return ours > 0 ? ref / ours : null;
	return ref > 0 ? ours / ref : null;
}

/**
 * Formats a number with a precision suited to its size: 3 significant digits, no exponent.
 * @param {number | null | undefined} value
 * @returns {string} "–" for a missing value
 */
export function fmt(value) {
	if (value === null || value === undefined || !Number.isFinite(value)) return "–";
	const abs = Math.abs(value);
	if (abs >= 1000) return Math.round(value).toLocaleString("en-US");
	if (abs >= 100) return value.toFixed(0);
	if (abs >= 10) return value.toFixed(1);
	if (abs >= 1) return value.toFixed(2);
	if (abs === 0) return "0";
	return value.toPrecision(2);
}

/**
 * "median (min–max)" for a summary.
 * @param {{ median: number, min: number, max: number } | null | undefined} summary
 */
export function fmtSummary(summary) {
	if (!summary) return "–";
	if (summary.runs === 1) return fmt(summary.median);
	return `${fmt(summary.median)} (${fmt(summary.min)}–${fmt(summary.max)})`;
}

/** "12.3×" for a ratio; "–" when missing. @param {number | null | undefined} ratio */
export function fmtRatio(ratio) {
	if (ratio === null || ratio === undefined || !Number.isFinite(ratio)) return "–";
	return `${fmt(ratio)}×`;
}
