import type { UsageCounts } from "../../assistant-message-builder.js";
import type { AnthropicWireUsage } from "./wire-types.js";

/**
 * Reads Anthropic token counts into builder usage counts. Only the fields present (as numbers)
 * are returned, so that applying `message_start` usage and then `message_delta` usage lets a
 * field of the later event win while fields it lacks keep their earlier value: claude-3-5
 * streams, for one, send only `output_tokens` in `message_delta`.
 *
 * Anthropic's `input_tokens` already excludes cached tokens, so it maps straight to `input`.
 *
 * @example
 * parseUsage({ input_tokens: 12, cache_read_input_tokens: 100 }) // { input: 12, cacheRead: 100 }
 */
export function parseUsage(usage: AnthropicWireUsage | null | undefined): UsageCounts {
	const counts: UsageCounts = {};
	if (!usage) return counts;
	if (typeof usage.input_tokens === "number") counts.input = usage.input_tokens;
	if (typeof usage.output_tokens === "number") counts.output = usage.output_tokens;
	if (typeof usage.cache_read_input_tokens === "number") counts.cacheRead = usage.cache_read_input_tokens;
	if (typeof usage.cache_creation_input_tokens === "number") counts.cacheWrite = usage.cache_creation_input_tokens;
	return counts;
}
