/**
 * @pi/agent-core: a small, reliable agent loop over @pi/ai. The loop is plain functions
 * (`agentLoop`, `runAgentLoop`); `Agent` keeps a transcript and queues around them.
 *
 * Contract in one line: every run emits a well-formed event sequence ending with `agent_end`,
 * whatever throws, aborts or interrupts it. See docs/agent.md.
 */
export type * from "./types.js";
export { Agent, type AgentListener, type AgentOptions } from "./agent/agent.js";
export { defineTool } from "./define-tool.js";
export {
	type AgentEventSink,
	agentLoop,
	agentLoopContinue,
	runAgentLoop,
	runAgentLoopContinue,
} from "./loop/agent-loop.js";
export { ABORTED_TEXT, INTERRUPTED_TEXT } from "./loop/assistant-messages.js";
export { defaultConvertToLlm, isLlmMessage } from "./loop/default-convert-to-llm.js";
export { deferredPlaceholder, isRedeemable } from "./loop/redeem-deferred.js";
export { TOOL_ABORTED_TEXT } from "./loop/execute-tool-calls.js";
export { NEW_MESSAGE_REJECTION, openToolCalls, TOOL_INTERRUPTED_TEXT } from "./loop/open-tool-calls.js";
export { approveToolCall, pendingApprovals, rejectToolCall, ToolApprovalError, type ToolDecisionOptions } from "./session/session-approvals.js";
export type { QueueMode, SteeringMode } from "./agent/message-queue.js";
export { RunFailure } from "./loop/run-failure.js";
export {
	COMPACTION_SUMMARY_PREFIX,
	compactionSummaryToUser,
	createCompactionSummaryMessage,
	isCompactionSummary,
} from "./compaction/compaction-summary-message.js";
export {
	CHARS_PER_TOKEN,
	TOOL_CALL_TOKENS,
	type ContextTokenEstimate,
	type EstimateOptions,
	estimateContextTokens,
	estimateMessageTokens,
	usageContextTokens,
} from "./compaction/estimate-tokens.js";
export { estimateImageTokens, imageDimensions, UNKNOWN_IMAGE_TOKENS } from "./compaction/image-tokens.js";
export {
	type CompactionSettings,
	DEFAULT_KEEP_RECENT_TOKENS,
	DEFAULT_RESERVE_TOKENS,
	shouldCompact,
} from "./compaction/should-compact.js";
export { type CutPoint, findCutPoint } from "./compaction/find-cut-point.js";
export {
	compact,
	CompactionError,
	type CompactionErrorKind,
	type CompactionResult,
	type CompactOptions,
} from "./compaction/compact.js";
export {
	buildSummaryPrompt,
	SUMMARY_SECTIONS,
	SUMMARY_SYSTEM_PROMPT,
	type SummaryRequest,
	TEXT_BLOCK_CHARS,
	TOOL_RESULT_CHARS,
} from "./compaction/summary-prompt.js";
export type {
	CompactionEntry,
	CustomEntry,
	LabelEntry,
	LeafEntry,
	ModelChangeEntry,
	SessionContext,
	SessionEntry,
	SessionEntryBase,
	SessionEntryInput,
	SessionEntryType,
	SessionMessageEntry,
	SessionModelRef,
	SystemPromptChangeEntry,
	ThinkingLevelChangeEntry,
	ToolApprovalDecisionEntry,
	ToolApprovalEntry,
	ToolApprovalRecord,
	ToolApprovalRequestEntry,
	ToolApprovalRunEntry,
} from "./session/session-entry.js";
export type { SessionLog, SessionStorage, SessionStorageLock } from "./session/session-storage.js";
export {
	SessionClosedError,
	SessionConflictError,
	SessionCorruptError,
	type SessionCorruptLocation,
	SessionError,
	type SessionLockHolder,
	SessionLockedError,
} from "./session/session-errors.js";
export {
	type AppendMessageOptions,
	type AppendOptions,
	type OpenSessionOptions,
	openSession,
	Session,
} from "./session/session.js";
export { createMemorySessionStorage, type MemorySessionStorage, type MemorySessionStorageOptions } from "./session/memory-storage.js";
export { buildSessionContext, compactionSummaryMessage } from "./session/build-context.js";

// --- streamProxy, the client half of the proxy (the server half is @pi/agent-core/proxy-server). ---
export { type ProxyRequestBody, type ProxyStreamOptions, streamProxy } from "./proxy/stream-proxy.js";
export type { ProxyAssistantMessageEvent } from "./proxy/proxy-events.js";
