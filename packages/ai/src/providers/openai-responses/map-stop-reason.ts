import type { FinishReason } from "../../assistant-message-builder.js";
import type { ResponsesResponse } from "./wire-types.js";

/** How a terminal Responses event ends the message. */
export interface StopDecision {
	reason: FinishReason;
	/**
	 * The provider's own value: the response `status` (`completed`, `failed`), or for an incomplete
	 * response the `incomplete_details.reason` (`max_output_tokens`, `content_filter`).
	 */
	rawStopReason: string;
	/** Set when `reason` is `error`. */
	errorMessage?: string;
}

/**
 * Maps a terminal event (`response.completed`, `response.incomplete`, `response.failed`) to a stop
 * reason:
 * - `completed` → `toolUse` when a `function_call` item was emitted, else `stop`;
 * - `incomplete` with reason `max_output_tokens` → `length`; any other reason → `error`;
 * - `failed` → `error` with the provider's message;
 * - anything else → `stop` (never throws).
 *
 * @example
 * mapStopReason("response.incomplete", { incomplete_details: { reason: "max_output_tokens" } }, false)
 * // { reason: "length", rawStopReason: "max_output_tokens" }
 */
export function mapStopReason(eventType: string, response: ResponsesResponse | undefined, hasFunctionCall: boolean): StopDecision {
	switch (eventType) {
		case "response.completed":
			return { reason: hasFunctionCall ? "toolUse" : "stop", rawStopReason: response?.status ?? "completed" };
		case "response.incomplete": {
			const why = response?.incomplete_details?.reason ?? undefined;
			if (why === "max_output_tokens") return { reason: "length", rawStopReason: why };
			return {
				reason: "error",
				rawStopReason: why ?? "incomplete",
				errorMessage: `The response is incomplete: ${why ?? "the provider gave no reason"}.`,
			};
		}
		case "response.failed":
			return {
				reason: "error",
				rawStopReason: response?.status ?? "failed",
				errorMessage: providerErrorText(response?.error?.code, response?.error?.message) ?? "The response failed without an error message.",
			};
		default:
			return { reason: "stop", rawStopReason: eventType };
	}
}

/**
 * `code: message`, as the provider wrote them (the code is left out when the message already
 * names it), or `undefined` when both are empty.
 *
 * @example
 * providerErrorText("insufficient_quota", "You exceeded your current quota") // "insufficient_quota: You exceeded your current quota"
 */
export function providerErrorText(code: string | null | undefined, message: string | null | undefined): string | undefined {
	if (message && code && !message.includes(code)) return `${code}: ${message}`;
	return message || code || undefined;
}
