import { type AssistantMessage, emptyUsage, type Model } from "@pi/ai";

/** The `errorMessage` of a reply cut short by `interrupt` (steering mode `interrupt`). */
export const INTERRUPTED_TEXT = "The reply was interrupted by a steering message.";

/** The `errorMessage` of a reply the loop ended because its signal was aborted. */
export const ABORTED_TEXT = "Request was aborted.";

/**
 * An assistant message with no content that reports a failure or an abort, for when the loop
 * has no reply of the model to attach it to.
 */
export function emptyAssistantMessage(
	model: Model,
	stopReason: "error" | "aborted",
	errorMessage: string,
): AssistantMessage {
	return {
		role: "assistant",
		content: [],
		api: model.api,
		provider: model.provider,
		model: model.id,
		usage: emptyUsage(),
		stopReason,
		errorMessage,
		timestamp: Date.now(),
	};
}

/**
 * Ends a partial reply with `stopReason`, keeping everything that streamed. Returns a copy:
 * the partial belongs to the provider, which may still touch it while it winds down.
 */
export function endPartialReply(
	partial: AssistantMessage,
	stopReason: "error" | "aborted",
	errorMessage: string,
): AssistantMessage {
	return { ...partial, content: partial.content.slice(), stopReason, errorMessage };
}
