import { fnv1a, sanitizeToolCallId } from "../../transform-messages.js";
import type { ResolvedOpenAICompletionsCompat } from "./detect-compat.js";

/** OpenAI rejects tool-call ids longer than this ("string too long ... maximum length 40"). */
export const OPENAI_TOOL_CALL_ID_MAX_LENGTH = 40;

const MISTRAL_ID = /^[a-zA-Z0-9]{9}$/;

/**
 * Makes a tool-call id one that Mistral accepts: exactly 9 letters and digits. A valid id is
 * kept; any other is replaced by 9 characters derived from it by hashing, so the same original
 * id always gives the same result (its tool result follows it).
 *
 * @example
 * mistralToolCallId("Xk3p9QzA1") // "Xk3p9QzA1"
 * mistralToolCallId("call_abc123") // 9 base-36 characters, the same on every call
 */
export function mistralToolCallId(id: string): string {
	if (MISTRAL_ID.test(id)) return id;
	// Two differently salted 32-bit hashes give ~64 bits, more than 9 base-36 characters hold.
	const digits = fnv1a(id).padStart(7, "0") + fnv1a(`mistral:${id}`).padStart(7, "0");
	return digits.slice(0, 9);
}

/**
 * Makes a tool-call id one that OpenAI-style servers accept: a Responses id `call_…|fc_…`
 * keeps only its `call_…` part, and an id longer than 40 characters or with characters outside
 * `[a-zA-Z0-9_-]` is sanitized (keeping a hash, so distinct ids stay distinct).
 *
 * @example
 * openAIToolCallId("call_abc|fc_123") // "call_abc"
 * openAIToolCallId("toolu_01A09q90qw90lq917835lq9") // unchanged
 */
export function openAIToolCallId(id: string): string {
	const bar = id.indexOf("|");
	const callId = bar > 0 ? id.slice(0, bar) : id;
	return sanitizeToolCallId(callId, OPENAI_TOOL_CALL_ID_MAX_LENGTH);
}

/** The id normaliser for a server, to pass to `transformMessages` and to apply on the wire. */
export function toolCallIdNormalizer(compat: Pick<ResolvedOpenAICompletionsCompat, "toolCallIdFormat">): (id: string) => string {
	return compat.toolCallIdFormat === "mistral" ? mistralToolCallId : openAIToolCallId;
}
