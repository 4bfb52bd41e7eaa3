import type { SessionEntry } from "@pi/agent-core";

/** Longest title kept in the `sessions` row. */
const TITLE_LENGTH = 120;

/**
 * The title label of a session for listings: the text of its first user message, on one line,
 * cut at 120 characters; `null` while `entries` hold no user message with text.
 */
export function titleOf(entries: readonly SessionEntry[]): string | null {
	for (const entry of entries) {
		if (entry.type !== "message" || entry.message.role !== "user") continue;
		const content = (entry.message as { content: unknown }).content;
		const text =
			typeof content === "string"
				? content
				: Array.isArray(content)
					? content.map((block: { type?: string; text?: string }) => (block.type === "text" ? (block.text ?? "") : "")).join(" ")
					: "";
		const line = text.replace(/\s+/g, " ").trim();
		if (line) return line.length > TITLE_LENGTH ? `${line.slice(0, TITLE_LENGTH - 1)}…` : line;
	}
	return null;
}
