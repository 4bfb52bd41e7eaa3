/**
 * What a path of entries means: the messages and settings an agent resumes with. Pure; the
 * `Session` calls it with the path from the root to a leaf.
 */
import type { AgentMessage, CompactionSummaryMessage } from "../types.js";
import { createCompactionSummaryMessage } from "../compaction/compaction-summary-message.js";
import type { CompactionEntry, SessionContext, SessionEntry, SessionModelRef } from "./session-entry.js";

/**
 * Folds `path` (root first) into a {@link SessionContext}.
 *
 * - messages: every `message` entry's message in path order; after the latest `compaction`,
 *   a `compactionSummary` message with its summary, then the messages from its
 *   `firstKeptEntryId` on (when that id is not on the path, only the messages after the
 *   compaction are kept);
 * - model: the latest `model_change`, or else (no change on the path) the latest assistant
 *   message's `provider`/`model`;
 * - thinkingLevel, systemPrompt: the latest change entry, or `undefined`.
 *
 * Entries of other types (labels, custom data, unknown types) add nothing.
 */
export function buildSessionContext(path: readonly SessionEntry[]): SessionContext {
	let changedModel: SessionModelRef | undefined;
	let replyModel: SessionModelRef | undefined;
	let thinkingLevel: SessionContext["thinkingLevel"];
	let systemPrompt: string | undefined;
	let compactionIndex = -1;
	for (let index = 0; index < path.length; index++) {
		const entry = path[index] as SessionEntry;
		switch (entry.type) {
			case "model_change":
				changedModel = { provider: entry.provider, modelId: entry.modelId };
				break;
			case "thinking_level_change":
				thinkingLevel = entry.thinkingLevel;
				break;
			case "system_prompt_change":
				systemPrompt = entry.systemPrompt;
				break;
			case "compaction":
				compactionIndex = index;
				break;
			case "message": {
				const message = entry.message;
				if (message.role === "assistant") replyModel = { provider: message.provider, modelId: message.model };
				break;
			}
		}
	}
	// The app's own choice (a model_change) outranks what a reply reports: a custom stream
	// function may name its model differently from the catalog.
	const model = changedModel ?? replyModel;

	const messages: AgentMessage[] = [];
	if (compactionIndex < 0) {
		for (const entry of path) if (entry.type === "message") messages.push(entry.message);
	} else {
		const compaction = path[compactionIndex] as CompactionEntry;
		messages.push(createCompactionSummaryMessage(compaction.summary, compaction.tokensBefore, compaction.timestamp));
		let keptStart = compactionIndex + 1;
		for (let index = 0; index < compactionIndex; index++) {
			if (path[index]?.id === compaction.firstKeptEntryId) {
				keptStart = index;
				break;
			}
		}
		for (let index = keptStart; index < path.length; index++) {
			const entry = path[index] as SessionEntry;
			if (entry.type === "message") messages.push(entry.message);
		}
	}
	return { messages, model, thinkingLevel, systemPrompt };
}

/**
 * The transcript message that stands for a compaction entry's summary.
 *
 * @deprecated Use `createCompactionSummaryMessage(entry.summary, entry.tokensBefore, entry.timestamp)`
 * (the reference's name), which this calls.
 */
export function compactionSummaryMessage(entry: CompactionEntry): CompactionSummaryMessage {
	return createCompactionSummaryMessage(entry.summary, entry.tokensBefore, entry.timestamp);
}
