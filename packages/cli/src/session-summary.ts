/**
 * What `pi-ai sessions` shows of a conversation, read from its file without taking its lock (so
 * listing works while another pi-ai is writing one).
 */
import { openSession, type Session, type SessionEntry } from "@pi/agent-core";
import { createJsonlSessionStorage } from "@pi/agent-core/node";
import type { AssistantMessage, UserMessage } from "@pi/ai";

/** One conversation in the listing. */
export interface SessionSummary {
	id: string;
	path: string;
	/** When the conversation started (its first entry, else the file's change time), Unix ms. */
	startedMs: number;
	/** When it last changed, Unix ms. */
	modifiedMs: number;
	/** `provider/id` of the latest model, or `null`. */
	model: string | null;
	/** The first line of the first prompt. */
	firstLine: string;
	/** Messages in the log (every branch). */
	messages: number;
	/** Total cost of every reply in the log, US dollars. */
	cost: number;
}

/** Opens a session file for reading only. */
export function openForReading(path: string): Promise<Session> {
	return openSession(createJsonlSessionStorage(path), { lock: false });
}

/** The text of a user message's content. */
export function userText(message: UserMessage): string {
	if (typeof message.content === "string") return message.content;
	return message.content.map((block) => (block.type === "text" ? block.text : "[image]")).join(" ");
}

/** Summarises the entries of one session file. */
export function summarise(id: string, path: string, modifiedMs: number, entries: readonly SessionEntry[]): SessionSummary {
	let firstLine = "";
	let model: string | null = null;
	let cost = 0;
	let messages = 0;
	for (const entry of entries) {
		if (entry.type === "model_change") model = `${entry.provider}/${entry.modelId}`;
		if (entry.type !== "message") continue;
		messages++;
		const message = entry.message as { role?: string };
		if (message.role === "user" && firstLine === "") firstLine = userText(entry.message as UserMessage).trim().split("\n")[0] ?? "";
		if (message.role === "assistant") {
			const reply = entry.message as AssistantMessage;
			cost += reply.usage?.cost?.total ?? 0;
			model ??= `${reply.provider}/${reply.model}`;
		}
	}
	return { id, path, startedMs: entries[0]?.timestamp ?? modifiedMs, modifiedMs, model, firstLine, messages, cost };
}
