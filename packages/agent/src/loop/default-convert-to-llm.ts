import type { Message } from "@pi/ai";
import type { AgentMessage, CompactionSummaryMessage } from "../types.js";

/**
 * The default `convertToLlm`: keeps the messages a model understands (`user`, `assistant`,
 * `toolResult`), turns a `compactionSummary` into a user message that says it summarises the
 * earlier conversation, and drops every custom message. Apps with custom messages the model
 * should see write their own and call this for the rest.
 *
 * @example
 * ```ts
 * convertToLlm: (messages) => defaultConvertToLlm(messages.map((m) =>
 *   m.role === "artifact" ? { role: "user", content: `Artifact ${m.title}:\n${m.body}`, timestamp: m.timestamp } : m))
 * ```
 */
export function defaultConvertToLlm(messages: AgentMessage[]): Message[] {
	const result: Message[] = [];
	for (const message of messages) {
		if (isLlmMessage(message)) result.push(message);
		else if ((message as { role?: unknown }).role === "compactionSummary") {
			result.push(compactionSummaryToUser(message as CompactionSummaryMessage));
		}
	}
	return result;
}

/** True for the roles a model understands: `user`, `assistant` and `toolResult`. */
export function isLlmMessage(message: AgentMessage): message is Message {
	const role = (message as { role?: unknown }).role;
	return role === "user" || role === "assistant" || role === "toolResult";
}

function compactionSummaryToUser(message: CompactionSummaryMessage): Message {
	return {
		role: "user",
		content: `The conversation before this point was compacted. This is a summary of it:\n\n<summary>\n${message.summary}\n</summary>`,
		timestamp: message.timestamp,
	};
}
