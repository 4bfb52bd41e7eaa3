import type { FinishReason } from "../../assistant-message-builder.js";

/**
 * Maps a Chat Completions `finish_reason` to a stop reason (see CONFORMANCE.md):
 * `stop` → `stop`, or `toolUse` when the message has tool calls (some servers, e.g. Ollama and
 * older vLLM, say `stop` after tool calls); `tool_calls` / `function_call` → `toolUse`;
 * `length` → `length`; `content_filter` → `error`; OpenRouter's `error` → `error`; any other
 * value (vLLM's `abort`, a server's own) → `stop`, never a throw. The caller keeps the raw value as `rawStopReason`.
 *
 * @example
 * mapStopReason("tool_calls", false) // "toolUse"
 * mapStopReason("eos", false) // "stop"
 */
export function mapStopReason(finishReason: string, hasToolCalls: boolean): FinishReason {
	switch (finishReason) {
		case "stop":
			return hasToolCalls ? "toolUse" : "stop";
		case "tool_calls":
		case "function_call":
			return "toolUse";
		case "length":
			return "length";
		case "content_filter":
		case "error":
			return "error";
		default:
			return "stop";
	}
}

/** The message of a reply that ended with an `error` finish reason. */
export function stopReasonErrorMessage(finishReason: string): string {
	return finishReason === "content_filter"
		? "The provider's content filter stopped the response (finish_reason: content_filter)."
		: `The provider ended the response with finish_reason "${finishReason}".`;
}
