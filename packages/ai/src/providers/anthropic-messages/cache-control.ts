import type { CacheRetention } from "../../types.js";
import type { AnthropicCacheControl, AnthropicMessageParam, AnthropicTextBlock } from "./wire-types.js";

/**
 * The `cache_control` marker for a retention: none for `none`, the default five-minute
 * `{ type: "ephemeral" }` for `short`, and `{ type: "ephemeral", ttl: "1h" }` for `long`.
 *
 * @example
 * cacheControlFor("long") // { type: "ephemeral", ttl: "1h" }
 */
export function cacheControlFor(retention: CacheRetention): AnthropicCacheControl | undefined {
	if (retention === "none") return undefined;
	return retention === "long" ? { type: "ephemeral", ttl: "1h" } : { type: "ephemeral" };
}

/**
 * Places prompt-cache breakpoints, mutating the given arrays: one on the last system block (which
 * caches the tools and the system prompt, as tools come first in Anthropic's cache order) and one
 * on the last block of the last user turn (which caches the conversation so far, so the next
 * request reads it back). Two of the four breakpoints the API allows.
 *
 * Assistant blocks never get one: thinking blocks cannot carry `cache_control`.
 */
export function applyCacheControl(
	system: AnthropicTextBlock[] | undefined,
	messages: AnthropicMessageParam[],
	cacheControl: AnthropicCacheControl | undefined,
): void {
	if (!cacheControl) return;
	const lastSystem = system?.[system.length - 1];
	if (lastSystem) lastSystem.cache_control = { ...cacheControl };
	for (let index = messages.length - 1; index >= 0; index--) {
		const message = messages[index] as AnthropicMessageParam;
		if (message.role !== "user") continue;
		const lastBlock = message.content[message.content.length - 1];
		if (lastBlock) lastBlock.cache_control = { ...cacheControl };
		return;
	}
}
