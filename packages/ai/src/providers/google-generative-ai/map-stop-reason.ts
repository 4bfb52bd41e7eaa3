/** What a Gemini `finishReason` means for the message. */
export interface GeminiStop {
	reason: "stop" | "length" | "toolUse" | "error";
	/** Set when `reason` is `error`. */
	errorMessage?: string;
}

/**
 * Why Gemini refuses or stops, in words, for the reasons that end a reply as an `error`.
 * Values from the API's `FinishReason` enum.
 */
const ERROR_REASONS: Readonly<Record<string, string>> = {
	SAFETY: "the response was flagged by the safety filters",
	RECITATION: "the response was flagged for reciting training data",
	LANGUAGE: "the response uses an unsupported language",
	BLOCKLIST: "the response contains a term from the terminology blocklist",
	PROHIBITED_CONTENT: "the response was flagged for prohibited content",
	SPII: "the response was flagged for sensitive personal information",
	MALFORMED_FUNCTION_CALL: "the model produced an invalid function call",
	UNEXPECTED_TOOL_CALL: "the model called a tool that is not enabled",
	TOO_MANY_TOOL_CALLS: "the model made too many tool calls in a row",
	MISSING_THOUGHT_SIGNATURE: "the request lacks a required thought signature",
	MALFORMED_RESPONSE: "the model produced a malformed response",
	IMAGE_SAFETY: "the generated image was flagged by the safety filters",
	IMAGE_PROHIBITED_CONTENT: "the generated image was flagged for prohibited content",
	IMAGE_RECITATION: "the generated image was flagged for recitation",
	IMAGE_OTHER: "image generation stopped for another reason",
	NO_IMAGE: "the model was expected to produce an image but produced none",
	OTHER: "generation stopped for an unspecified reason",
};

/**
 * Maps a Gemini `finishReason`: `STOP` is `stop`, or `toolUse` when the message has function calls;
 * `MAX_TOKENS` is `length`; the refusal and failure reasons (`SAFETY`, `RECITATION`, `BLOCKLIST`,
 * `PROHIBITED_CONTENT`, `SPII`, `MALFORMED_FUNCTION_CALL`, `OTHER`, …) are `error` with a message
 * naming the reason (plus Gemini's `finishMessage`). Any other value is an `error` too, as
 * CONFORMANCE.md's Gemini row requires: every Gemini finish reason besides `STOP` and
 * `MAX_TOKENS` (including `FINISH_REASON_UNSPECIFIED`) reports a reply that did not end normally.
 *
 * @example
 * mapStopReason("SAFETY", false).errorMessage; // "Gemini stopped with finishReason SAFETY: the response was flagged by the safety filters."
 */
export function mapStopReason(finishReason: string, hasToolCalls: boolean, finishMessage?: string): GeminiStop {
	switch (finishReason) {
		case "STOP":
			return { reason: hasToolCalls ? "toolUse" : "stop" };
		case "MAX_TOKENS":
			return { reason: "length" };
		default: {
			const meaning = ERROR_REASONS[finishReason];
			const detail = finishMessage ? ` (${finishMessage})` : "";
			const what = meaning ?? "a reason this library does not know, so the reply may be incomplete";
			return { reason: "error", errorMessage: `Gemini stopped with finishReason ${finishReason}: ${what}${detail}.` };
		}
	}
}

/** The error message for a prompt that Gemini blocked (`promptFeedback.blockReason`). */
export function blockedPromptMessage(blockReason: string, blockReasonMessage?: string): string {
	const text = `Gemini blocked the prompt (promptFeedback.blockReason ${blockReason})${blockReasonMessage ? `: ${blockReasonMessage}` : ""}`;
	return /[.!?]$/.test(text) ? text : `${text}.`;
}
