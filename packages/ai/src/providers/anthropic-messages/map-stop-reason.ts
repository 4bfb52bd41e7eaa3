import type { FinishReason } from "../../assistant-message-builder.js";

/** What an Anthropic `stop_reason` means for the unified message. */
export interface MappedStopReason {
	reason: FinishReason;
	/** The wire value, kept on the message as `rawStopReason`; absent when the wire sent none. */
	rawStopReason?: string;
	/** Set when `reason` is `error`. */
	errorMessage?: string;
}

/**
 * Maps Anthropic's `stop_reason` (from `message_delta`) to a unified stop reason.
 *
 * - `end_turn`, `stop_sequence`, `pause_turn` → `stop`. `pause_turn` means a server-side tool
 *   loop was paused and the caller may resend to continue; `rawStopReason` shows it.
 * - `tool_use` → `toolUse`.
 * - `max_tokens`, `model_context_window_exceeded` → `length`.
 * - `refusal` → `error`, with the explanation from `stop_details` when the server gave one.
 * - anything else, or no value at all → `stop` (never throws: new reasons appear over time).
 *
 * @example
 * mapStopReason("max_tokens") // { reason: "length", rawStopReason: "max_tokens" }
 */
export function mapStopReason(stopReason: string | null | undefined, explanation?: string): MappedStopReason {
	const raw = stopReason ?? undefined;
	switch (raw) {
		case "tool_use":
			return { reason: "toolUse", rawStopReason: raw };
		case "max_tokens":
		case "model_context_window_exceeded":
			return { reason: "length", rawStopReason: raw };
		case "refusal":
			return {
				reason: "error",
				rawStopReason: raw,
				errorMessage: explanation ? `Refusal: ${explanation}` : "The model refused to answer (stop_reason: refusal).",
			};
		case undefined:
			return { reason: "stop" };
		default:
			// end_turn, stop_sequence, pause_turn and values added after this was written.
			return { reason: "stop", rawStopReason: raw };
	}
}
