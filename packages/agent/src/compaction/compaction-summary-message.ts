import type { UserMessage } from "@pi/ai";
import type { CompactionSummaryMessage } from "../types.js";

/** The words that introduce the summary to the model, before the summary itself. */
export const COMPACTION_SUMMARY_PREFIX =
	"The earlier part of this conversation was compacted to save context. This is its summary; the messages after it continue from there.";

/** Builds a {@link CompactionSummaryMessage}; `timestamp` defaults to now. */
export function createCompactionSummaryMessage(summary: string, tokensBefore: number, timestamp: number = Date.now()): CompactionSummaryMessage {
	return { role: "compactionSummary", summary, tokensBefore, timestamp };
}

/**
 * What the model sees of a summary: a user message that says it summarises the earlier
 * conversation, with the summary inside `<summary>` tags so that it reads as a record, not as
 * a new request.
 */
export function compactionSummaryToUser(message: CompactionSummaryMessage): UserMessage {
	return {
		role: "user",
		content: `${COMPACTION_SUMMARY_PREFIX}\n\n<summary>\n${message.summary}\n</summary>`,
		timestamp: message.timestamp,
	};
}

/** True for a {@link CompactionSummaryMessage}. */
export function isCompactionSummary(message: unknown): message is CompactionSummaryMessage {
	return (message as { role?: unknown } | null)?.role === "compactionSummary";
}
