/**
 * @pi/mcp: tools, resources and prompts from any Model Context Protocol server, for
 * @pi/agent-core agents, over the official `@modelcontextprotocol/sdk` client. `connectMcp`
 * connects (stdio or Streamable HTTP); the pure mappings behind it are exported for apps that
 * drive the SDK themselves. See docs/mcp.md.
 */
export type * from "./types.js";
export { connectMcp, DEFAULT_MCP_TIMEOUT_MS } from "./connect-mcp.js";
export { agentToolFromMcp, type McpToolCaller } from "./agent-tool-from-mcp.js";
export { contentBlock, contentBlocks } from "./content-blocks.js";
export { McpToolError, toolResultFromMcp } from "./tool-result.js";
export { progressUpdate } from "./progress-update.js";
export { promptMessages } from "./prompt-messages.js";
export { samplingRequest, samplingResult, type SamplingRequest } from "./sampling-messages.js";
export { selectTools } from "./select-tools.js";
export { describeFailure, type FailureContext } from "./describe-failure.js";
