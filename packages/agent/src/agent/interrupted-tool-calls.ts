import type { AssistantMessage, ToolResultMessage } from "@pi/ai";
import type { AgentMessage } from "../types.js";

/** The text of the result given to a tool call that a crash or restart cut off. */
export const TOOL_INTERRUPTED_TEXT = "Tool call was interrupted (the agent stopped before it finished) and was not run again.";

/**
 * The tool calls of the transcript's last assistant message that have no result, each with a
 * synthetic error result saying it was interrupted. Only a transcript that ends with that
 * message (and maybe some of its results) can have them: a process killed while tools ran.
 * A live run never leaves calls without results (an abort gives each one a result).
 */
export function interruptedToolResults(messages: readonly AgentMessage[]): ToolResultMessage[] {
	let index = messages.length - 1;
	const answered = new Set<string>();
	while (index >= 0 && roleOf(messages[index]) === "toolResult") {
		answered.add((messages[index] as ToolResultMessage).toolCallId);
		index--;
	}
	const last = messages[index];
	if (roleOf(last) !== "assistant") return [];
	const assistant = last as AssistantMessage;
	const results: ToolResultMessage[] = [];
	const timestamp = Date.now();
	for (const block of assistant.content) {
		if (block.type !== "toolCall" || answered.has(block.id)) continue;
		answered.add(block.id);
		results.push({
			role: "toolResult",
			toolCallId: block.id,
			toolName: block.name,
			content: [{ type: "text", text: TOOL_INTERRUPTED_TEXT }],
			details: { interrupted: true },
			isError: true,
			timestamp,
		});
	}
	return results;
}

function roleOf(message: AgentMessage | undefined): unknown {
	return (message as { role?: unknown } | undefined)?.role;
}
