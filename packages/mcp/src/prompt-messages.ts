import { emptyUsage, type AssistantMessage, type TextContent } from "@pi/ai";
import type { AgentMessage } from "@pi/agent-core";
import type { PromptMessage } from "@modelcontextprotocol/sdk/types.js";
import { contentBlock } from "./content-blocks.js";

/**
 * A prompt's messages (`prompts/get`) as agent messages for `agent.prompt()`, one for one and in
 * order: a `user` message keeps its text and image blocks; an `assistant` message becomes an
 * assistant message with `api: "mcp"`, `provider` the server's name, `model: "mcp-prompt"`,
 * zero usage and `stopReason: "stop"`, its images named in text (assistant messages carry no
 * images). Resources and links become text as in tool results. Pure.
 *
 * @example
 * ```ts
 * promptMessages([{ role: "user", content: { type: "text", text: "Hi" } }], "everything", 0);
 * // [{ role: "user", content: [{ type: "text", text: "Hi" }], timestamp: 0 }]
 * ```
 */
export function promptMessages(messages: readonly PromptMessage[], serverName: string, timestamp = Date.now()): AgentMessage[] {
	return messages.map((message): AgentMessage => {
		const block = contentBlock(message.content);
		if (message.role === "user") return { role: "user", content: [block], timestamp };
		const text: TextContent = block.type === "text" ? block : { type: "text", text: `[image ${block.mimeType}, not shown]` };
		const assistant: AssistantMessage = {
			role: "assistant",
			content: [text],
			api: "mcp",
			provider: serverName,
			model: "mcp-prompt",
			usage: emptyUsage(),
			stopReason: "stop",
			timestamp,
		};
		return assistant;
	});
}
