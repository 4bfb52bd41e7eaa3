import type { AgentToolResult } from "@pi/agent-core";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { contentBlocks } from "./content-blocks.js";
import type { McpToolDetails } from "./types.js";

/**
 * The error a tool's `execute` throws when the server answered `isError: true`: its message is
 * the server's text, which the agent loop hands to the model as the error result.
 */
export class McpToolError extends Error {
	override name = "McpToolError";
	/** The server's result as it came, for logs. */
	readonly result: CallToolResult;
	constructor(message: string, result: CallToolResult) {
		super(message);
		this.result = result;
	}
}

/**
 * A `tools/call` result as an agent tool result: `content` mapped by {@link contentBlocks},
 * `structuredContent` as `details`. An `isError: true` result throws {@link McpToolError} with
 * the server's text (its text blocks joined by newlines), so that the loop records an error
 * result. A result in the older `toolResult` form (protocol 2024-10-07) becomes its JSON as text.
 *
 * @example
 * ```ts
 * toolResultFromMcp({ content: [{ type: "text", text: "3" }], structuredContent: { sum: 3 } }, "get-sum");
 * // { content: [{ type: "text", text: "3" }], details: { sum: 3 } }
 * ```
 */
export function toolResultFromMcp(result: CallToolResult | { toolResult: unknown }, toolName: string): AgentToolResult<McpToolDetails> {
	if (!("content" in result) && "toolResult" in result) {
		return { content: [{ type: "text", text: JSON.stringify(result.toolResult) ?? "" }], details: undefined };
	}
	const toolResult = result as CallToolResult;
	const content = contentBlocks(toolResult.content ?? []);
	if (toolResult.isError) {
		const text = content
			.filter((block) => block.type === "text")
			.map((block) => block.text)
			.join("\n");
		throw new McpToolError(text || `Tool "${toolName}" failed and sent no text.`, toolResult);
	}
	return { content, details: toolResult.structuredContent };
}
