/**
 * @pi/agent-core: a small, reliable agent loop over @pi/ai. The loop is plain functions
 * (`agentLoop`, `runAgentLoop`); `Agent` keeps a transcript and queues around them.
 *
 * Contract in one line: every run emits a well-formed event sequence ending with `agent_end`,
 * whatever throws, aborts or interrupts it. See docs/agent.md.
 */
export type * from "./types.js";
export { Agent, type AgentListener, type AgentOptions } from "./agent.js";
export {
	type AgentEventSink,
	agentLoop,
	agentLoopContinue,
	runAgentLoop,
	runAgentLoopContinue,
} from "./agent-loop.js";
export { ABORTED_TEXT, INTERRUPTED_TEXT } from "./assistant-messages.js";
export { defaultConvertToLlm, isLlmMessage } from "./default-convert-to-llm.js";
export { TOOL_ABORTED_TEXT } from "./execute-tool-calls.js";
export type { QueueMode, SteeringMode } from "./message-queue.js";
export { RunFailure } from "./run-failure.js";
