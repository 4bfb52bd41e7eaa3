import type { Message } from "@pi/ai";
import { compactionSummaryToUser, isCompactionSummary } from "../compaction/compaction-summary-message.js";
import type { AgentMessage } from "../types.js";

/**
 * The default `convertToLlm`: keeps the messages a model understands (`user`, `assistant`,
 * `toolResult`), turns the built-in `compactionSummary` message into a user message that says
 * it summarises the earlier conversation, and drops every custom message. Apps with custom
 * messages the model should see write their own and call this for the rest.
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
		else if (isCompactionSummary(message)) result.push(compactionSummaryToUser(message));
	}
	return result;
}

/** True for the roles a model understands: `user`, `assistant` and `toolResult`. */
export function isLlmMessage(message: AgentMessage): message is Message {
	const role = (message as { role?: unknown }).role;
	return role === "user" || role === "assistant" || role === "toolResult";
}
