import type { CacheRetention } from "../../types.js";
import type { ResolvedOpenAICompletionsCompat } from "./detect-compat.js";
import type { WireCacheControl, WireImagePart, WireMessage, WireTextPart, WireThinkingPart, WireTool } from "./wire-types.js";

/** The messages that can carry text: system, user and assistant. */
interface TextCarrier {
	content: string | (WireTextPart | WireImagePart | WireThinkingPart)[] | null;
}

/**
 * The cache breakpoint to mark for `compat.cacheControlFormat: "anthropic"`: `{ type: "ephemeral" }`,
 * with `ttl: "1h"` for `cacheRetention: "long"` (unless `supportsLongCacheRetention` is `false`).
 * `undefined` for any other format, or for `cacheRetention: "none"`.
 *
 * @example
 * cacheControlFor({ ...compat, cacheControlFormat: "anthropic" }, "long") // { type: "ephemeral", ttl: "1h" }
 */
export function cacheControlFor(compat: ResolvedOpenAICompletionsCompat, retention: CacheRetention): WireCacheControl | undefined {
	if (compat.cacheControlFormat !== "anthropic" || retention === "none") return undefined;
	return retention === "long" && compat.supportsLongCacheRetention !== false ? { type: "ephemeral", ttl: "1h" } : { type: "ephemeral" };
}

/**
 * Marks Anthropic cache breakpoints on a Chat Completions request, where OpenRouter reads them for
 * Claude models (it passes `cache_control` through; without one nothing is cached): the system
 * message, the last tool, and the last text of the last user or assistant message that has text.
 * A string `content` becomes one text part, as only a part can carry `cache_control`. Anthropic
 * caches the prefix up to each breakpoint; three stay within its limit of four.
 */
export function applyAnthropicCacheControl(messages: WireMessage[], tools: WireTool[] | undefined, cacheControl: WireCacheControl): void {
	const system = messages.find((message) => message.role === "system" || message.role === "developer");
	if (system) markText(system, cacheControl);
	const lastTool = tools?.[tools.length - 1];
	if (lastTool) lastTool.cache_control = cacheControl;
	for (let index = messages.length - 1; index >= 0; index--) {
		const message = messages[index];
		if ((message?.role === "user" || message?.role === "assistant") && markText(message, cacheControl)) return;
	}
}

/** Puts the breakpoint on the message's last text; `false` when it has none. */
function markText(message: TextCarrier, cacheControl: WireCacheControl): boolean {
	const content = message.content;
	if (typeof content === "string") {
		if (content === "") return false;
		message.content = [{ type: "text", text: content, cache_control: cacheControl }];
		return true;
	}
	for (let index = (content?.length ?? 0) - 1; index >= 0; index--) {
		const part = content?.[index];
		if (part?.type === "text") {
			part.cache_control = cacheControl;
			return true;
		}
	}
	return false;
}
