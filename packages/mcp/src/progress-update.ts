import type { AgentToolResult } from "@pi/agent-core";
import type { Progress } from "@modelcontextprotocol/sdk/types.js";
import type { McpProgressDetails } from "./types.js";

/**
 * A `notifications/progress` of a tool call as the partial result of a `tool_execution_update`:
 * the server's message, or else "progress 3/5" (or "progress 3" without a total), as text, and
 * the numbers as `details`.
 *
 * @example
 * ```ts
 * progressUpdate({ progress: 2, total: 5 });
 * // { content: [{ type: "text", text: "progress 2/5" }], details: { progress: 2, total: 5 } }
 * ```
 */
export function progressUpdate(progress: Progress): AgentToolResult<McpProgressDetails> {
	const details: McpProgressDetails = { progress: progress.progress };
	if (progress.total !== undefined) details.total = progress.total;
	if (progress.message !== undefined) details.message = progress.message;
	const fraction = progress.total !== undefined ? `${progress.progress}/${progress.total}` : `${progress.progress}`;
	return { content: [{ type: "text", text: progress.message ?? `progress ${fraction}` }], details };
}
