import type { AgentTool } from "@pi/agent-core";
import type { CallToolResult, Progress, Tool } from "@modelcontextprotocol/sdk/types.js";
import { progressUpdate } from "./progress-update.js";
import { toolResultFromMcp } from "./tool-result.js";
import type { McpToolDetails } from "./types.js";

/**
 * Calls one tool on the server: resolves to its result, reports each progress notification, and
 * on `signal` abort cancels the request (`notifications/cancelled`) and rejects.
 */
export type McpToolCaller = (
	name: string,
	args: Record<string, unknown>,
	signal: AbortSignal | undefined,
	onProgress: (progress: Progress) => void,
) => Promise<CallToolResult | { toolResult: unknown }>;

/**
 * One server tool as an agent tool named `prefix + tool.name`, with the server's description,
 * its input JSON Schema as `parameters`, the very object the server sent (typebox validates
 * plain JSON Schema, so the loop checks arguments against exactly what the server declared), and
 * `label` from the tool's `title` (or `annotations.title`), else its name. `execute` calls the
 * server through `callTool` with the server's own name, turns progress into `onUpdate` calls and
 * the answer into a result with {@link toolResultFromMcp}. Pure apart from `callTool`.
 *
 * @example
 * ```ts
 * const tool = agentToolFromMcp({ name: "get-sum", inputSchema: { type: "object" } }, "math_", callTool);
 * tool.name; // "math_get-sum"
 * ```
 */
export function agentToolFromMcp(tool: Tool, prefix: string, callTool: McpToolCaller): AgentTool<any, McpToolDetails> {
	return {
		name: prefix + tool.name,
		label: tool.title ?? tool.annotations?.title ?? tool.name,
		description: tool.description ?? "",
		// A JSON Schema object is what a typebox schema is at run time; the cast only names it so.
		parameters: tool.inputSchema as unknown as AgentTool["parameters"],
		async execute(_toolCallId, params, signal, onUpdate) {
			const args = (params ?? {}) as Record<string, unknown>;
			const result = await callTool(tool.name, args, signal, (progress) => onUpdate?.(progressUpdate(progress)));
			return toolResultFromMcp(result, tool.name);
		},
	};
}
