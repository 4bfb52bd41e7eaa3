/**
 * Reading a conversation for display: a session file opened without its lock (so `pi-ai show`
 * works while another pi-ai writes it), and the text of a prompt.
 */
import { openSession, type Session } from "@pi/agent-core";
import { createJsonlSessionStorage } from "@pi/agent-core/node";
import type { UserMessage } from "@pi/ai";

/** Opens a session file for reading only. */
export function openForReading(path: string): Promise<Session> {
	return openSession(createJsonlSessionStorage(path), { lock: false });
}

/** The text of a user message's content (images as `[image]`). */
export function userText(message: UserMessage): string {
	if (typeof message.content === "string") return message.content;
	return message.content.map((block) => (block.type === "text" ? block.text : "[image]")).join(" ");
}
