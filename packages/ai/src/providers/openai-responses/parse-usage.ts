import type { UsageCounts } from "../../assistant-message-builder.js";
import type { ResponsesUsage } from "./wire-types.js";

/**
 * Token counts from a Responses `usage` object (on `response.completed`, `.incomplete`, `.failed`).
 *
 * `input_tokens` includes the cached ones, so `input = input_tokens - cached_tokens` and
 * `cacheRead = cached_tokens`; `output = output_tokens`, which already includes reasoning tokens.
 * Responses reports no cache writes, so `cacheWrite` is 0. Missing fields count 0.
 *
 * @example
 * parseUsage({ input_tokens: 9463, input_tokens_details: { cached_tokens: 8320 }, output_tokens: 582 })
 * // { input: 1143, output: 582, cacheRead: 8320, cacheWrite: 0 }
 */
export function parseUsage(usage: ResponsesUsage): Required<UsageCounts> {
	const inputTokens = count(usage.input_tokens);
	const cached = Math.min(count(usage.input_tokens_details?.cached_tokens), inputTokens);
	return { input: inputTokens - cached, output: count(usage.output_tokens), cacheRead: cached, cacheWrite: 0 };
}

function count(value: number | null | undefined): number {
	return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}
