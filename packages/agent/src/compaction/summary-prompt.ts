import type { Message } from "@pi/ai";

/**
 * The summary request: the instructions, and the transcript written out as a record (not as a
 * conversation to continue, which a model would answer instead of summarising).
 */

/** The system prompt of the summary call. */
export const SUMMARY_SYSTEM_PROMPT = [
	"You write the handover notes of a conversation between a user and an AI assistant that works with tools.",
	"Another assistant will carry on the work from your notes alone, without the conversation, so the notes must hold everything it needs.",
	"Write the notes only. Do not continue the conversation, do not answer questions asked in it, and do not call tools.",
].join(" ");

/** The headings of a summary, in order. `Current turn` only appears when a turn was split. */
export const SUMMARY_SECTIONS = ["Goal", "Progress", "Decisions", "Open work", "Files and identifiers"] as const;

/** Characters of one tool result kept in the record; the rest is cut with a note. */
export const TOOL_RESULT_CHARS = 2_000;
/** Characters of any other text block kept in the record. */
export const TEXT_BLOCK_CHARS = 20_000;

/** What goes into one summary request. */
export interface SummaryRequest {
	/** The summary an earlier compaction wrote, carried forward. */
	previousSummary?: string;
	/** The messages before the cut (before the split turn, when a turn is split). */
	history: Message[];
	/** The beginning of a split turn: its user message up to the cut. */
	turnBeginning?: Message[];
	/** Extra instructions from the app, e.g. "keep every SQL query verbatim". */
	customInstructions?: string;
	/** At most this many characters of record; the oldest messages go first. Default: no limit. */
	maxRecordChars?: number;
}

/** Builds the text of the user message of a summary call. */
export function buildSummaryPrompt(request: SummaryRequest): string {
	const parts: string[] = [];
	const turn = request.turnBeginning && request.turnBeginning.length > 0 ? request.turnBeginning : undefined;
	const limit = request.maxRecordChars ?? Number.POSITIVE_INFINITY;
	const turnRecord = turn ? fitRecord(turn.map(recordOf), limit / 2) : "";
	const historyRecord = fitRecord(request.history.map(recordOf), limit - turnRecord.length);
	if (request.previousSummary) parts.push(`<previous-summary>\n${request.previousSummary}\n</previous-summary>`);
	parts.push(`<conversation>\n${historyRecord || "(no messages)"}\n</conversation>`);
	if (turn) parts.push(`<current-turn-beginning>\n${turnRecord}\n</current-turn-beginning>`);

	const format = [
		"Summarise the conversation above for the assistant that takes over. Use these markdown headings, in this order, and write \"None.\" under a heading with nothing to say:",
		"",
		"## Goal",
		"What the user wants overall, with every constraint and preference they stated.",
		"## Progress",
		"What has been done so far and what it gave.",
		"## Decisions",
		"The choices made and why, including approaches tried and ruled out.",
		"## Open work",
		"What remains to do, in order, and what the assistant was in the middle of.",
		"## Files and identifiers",
		"Exact file paths, function, type and variable names, commands, URLs, ids, numbers and error messages that matter, each with a few words on its role. Copy them exactly.",
	];
	if (turn) {
		format.push(
			"## Current turn",
			"The user's latest request (quote it) and what has been done for it so far, from <current-turn-beginning>. The messages after your summary continue this turn.",
		);
	}
	parts.push(format.join("\n"));
	if (request.previousSummary) {
		parts.push(
			"<previous-summary> covers the conversation before <conversation>. Merge it into your summary: keep everything from it that still matters, update what changed, and drop only what is settled and no longer needed. Your summary replaces it.",
		);
	}
	if (request.customInstructions?.trim()) parts.push(`Also: ${request.customInstructions.trim()}`);
	return parts.join("\n\n");
}

/** One message written out as a record entry. */
function recordOf(message: Message): string {
	switch (message.role) {
		case "user": {
			const content = typeof message.content === "string" ? [{ type: "text" as const, text: message.content }] : message.content;
			const body = content.map((block) => (block.type === "text" ? cut(block.text, TEXT_BLOCK_CHARS) : "[image]")).join("\n");
			return `[user]\n${body}`;
		}
		case "assistant": {
			const lines: string[] = [];
			for (const block of message.content) {
				if (block.type === "text" && block.text.trim()) lines.push(`[assistant]\n${cut(block.text, TEXT_BLOCK_CHARS)}`);
				else if (block.type === "thinking" && block.thinking.trim() && !block.redacted) lines.push(`[assistant thinking]\n${cut(block.thinking, TEXT_BLOCK_CHARS)}`);
				else if (block.type === "toolCall") lines.push(`[assistant calls ${block.name}] ${cut(safeJson(block.arguments), TOOL_RESULT_CHARS)}`);
			}
			if (message.stopReason === "error" || message.stopReason === "aborted") {
				lines.push(`[assistant reply ${message.stopReason === "error" ? "failed" : "aborted"}${message.errorMessage ? `: ${message.errorMessage}` : ""}]`);
			}
			return lines.join("\n");
		}
		case "toolResult": {
			const body = message.content.map((block) => (block.type === "text" ? block.text : "[image]")).join("\n");
			return `[${message.toolName} ${message.isError ? "failed" : "returned"}]\n${cut(body, TOOL_RESULT_CHARS)}`;
		}
		default:
			return "";
	}
}

/** Joins record entries, dropping the oldest until the record fits `limit` characters. */
function fitRecord(entries: string[], limit: number): string {
	const kept = entries.filter((entry) => entry !== "");
	let total = kept.reduce((sum, entry) => sum + entry.length + 2, 0);
	let dropped = 0;
	while (kept.length > 1 && total > limit) {
		total -= (kept.shift() as string).length + 2;
		dropped++;
	}
	const record = kept.join("\n\n");
	return dropped > 0 ? `[${dropped} older messages left out: too long for the summary call]\n\n${record}` : record;
}

function cut(text: string, limit: number): string {
	return text.length <= limit ? text : `${text.slice(0, limit)}… [${text.length - limit} more characters]`;
}

function safeJson(value: unknown): string {
	try {
		return JSON.stringify(value) ?? "";
	} catch {
		return String(value);
	}
}
