import type { UserMessage } from "@pi/ai";

/**
 * The built-in message that stands for the part of a conversation a compaction summarised. It
 * sits first in a compacted transcript, followed by the messages that were kept. The default
 * `convertToLlm` sends it to the model as a user message (see {@link compactionSummaryToUser}).
 *
 * @example
 * ```ts
 * const message: CompactionSummaryMessage = { role: "compactionSummary", summary: "## Goal\n…", tokensBefore: 120_000, timestamp: Date.now() };
 * ```
 */
export interface CompactionSummaryMessage {
	role: "compactionSummary";
	/** The structured summary (markdown: goal, decisions, open work, files and identifiers). */
	summary: string;
	/** The estimated context size, in tokens, before the compaction that wrote this summary. */
	tokensBefore: number;
	/** Epoch milliseconds: when the compaction happened. Usage reported before it is stale. */
	timestamp: number;
}

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
		content: [{ type: "text", text: `${COMPACTION_SUMMARY_PREFIX}\n\n<summary>\n${message.summary}\n</summary>` }],
		timestamp: message.timestamp,
	};
}

/** True for a {@link CompactionSummaryMessage}. */
export function isCompactionSummary(message: unknown): message is CompactionSummaryMessage {
	return (message as { role?: unknown } | null)?.role === "compactionSummary";
}
