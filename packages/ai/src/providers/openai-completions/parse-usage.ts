import type { UsageCounts } from "../../assistant-message-builder.js";
import type { WireUsage } from "./wire-types.js";

/**
 * Token counts from a Chat Completions `usage` object (or Groq's `x_groq.usage`), per the
 * CONFORMANCE usage table: `cacheRead` is `prompt_tokens_details.cached_tokens`, else DeepSeek's
 * `prompt_cache_hit_tokens`, else 0; `input` is `prompt_tokens` minus it; `output` is
 * `completion_tokens`, which already includes reasoning; `cacheWrite` is 0 (the API reports none).
 * Missing or invalid numbers count 0.
 *
 * One server breaks the table's premise: xAI leaves reasoning out of `completion_tokens` and
 * adds it to `total_tokens` (grok-3-mini: 291 + 26 + 196 reasoning = 513). When the numbers show
 * exactly that (`prompt + completion + reasoning === total`, and `prompt + completion` falls
 * short of it), the reasoning tokens are added to `output`, so that `output` counts all output
 * tokens as the usage rules define it, `totalTokens` matches the server's total, and cost is right.
 *
 * @example
 * parseUsage({ prompt_tokens: 339, completion_tokens: 83, prompt_tokens_details: { cached_tokens: 320 } })
 * // { input: 19, output: 83, cacheRead: 320, cacheWrite: 0 }
 */
export function parseUsage(usage: WireUsage): Required<UsageCounts> {
	const prompt = count(usage.prompt_tokens);
	const cachedDetail = usage.prompt_tokens_details?.cached_tokens;
	const cacheRead = Math.min(prompt, typeof cachedDetail === "number" ? count(cachedDetail) : count(usage.prompt_cache_hit_tokens));
	const completion = count(usage.completion_tokens);
	const reasoning = count(usage.completion_tokens_details?.reasoning_tokens);
	const total = count(usage.total_tokens);
	const reasoningOutside = reasoning > 0 && prompt + completion < total && prompt + completion + reasoning === total;
	return { input: prompt - cacheRead, output: reasoningOutside ? completion + reasoning : completion, cacheRead, cacheWrite: 0 };
}

function count(value: unknown): number {
	return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}
