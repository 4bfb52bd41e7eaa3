import type { UsageCounts } from "../../assistant-message-builder.js";
import type { GeminiUsageMetadata } from "./wire-types.js";

/**
 * Token counts from Gemini's `usageMetadata` (cumulative: the last chunk's values are the totals).
 *
 * - input: `promptTokenCount + toolUsePromptTokenCount - cachedContentTokenCount` (the prompt count
 *   includes cached tokens; tool-use prompt tokens, e.g. search results fed back, are extra input);
 * - output: `candidatesTokenCount + thoughtsTokenCount` (Gemini reports thoughts separately);
 * - cacheRead: `cachedContentTokenCount`; cacheWrite: 0 (Gemini bills cache storage, not writes).
 *
 * Missing fields count 0.
 *
 * @example
 * parseUsage({ promptTokenCount: 21, toolUsePromptTokenCount: 243, candidatesTokenCount: 126, thoughtsTokenCount: 95 });
 * // { input: 264, output: 221, cacheRead: 0, cacheWrite: 0 }
 */
export function parseUsage(usage: GeminiUsageMetadata): Required<UsageCounts> {
	const cached = count(usage.cachedContentTokenCount);
	return {
		input: Math.max(0, count(usage.promptTokenCount) + count(usage.toolUsePromptTokenCount) - cached),
		output: count(usage.candidatesTokenCount) + count(usage.thoughtsTokenCount),
		cacheRead: cached,
		cacheWrite: 0,
	};
}

function count(value: number | undefined): number {
	return typeof value === "number" && Number.isFinite(value) ? value : 0;
}
