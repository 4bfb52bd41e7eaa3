/**
 * The state of the tool calls of one assistant message while they run. Its own file, because
 * both the executor and the run's state (which a failing run closes the batch through) need it.
 */
import type { AssistantMessage, ToolCall, ToolResultMessage } from "@pi/ai";
import type { AgentTool, AgentToolResult, OpenToolCall } from "../types.js";

/** One tool call of a batch, as it moves through prepare, execute and deliver. */
export interface CallState {
	call: ToolCall;
	tool: AgentTool<any> | undefined;
	/** The validated arguments. */
	args: unknown;
	/** `tool_execution_start` was emitted. */
	started: boolean;
	/** Prepared and allowed to run. */
	ready: boolean;
	/** The final result; set right before its `tool_execution_end` is emitted. */
	outcome: { result: AgentToolResult<unknown>; isError: boolean } | undefined;
	/** The tool-result message, once delivered. */
	message: ToolResultMessage | undefined;
	/** In a batch an earlier run left open: what to do with the call. */
	open: OpenToolCall | undefined;
	/** Waits for a person's approval: it neither runs nor gets a result in this run. */
	awaiting: boolean;
}

/** The tool calls of one assistant message while they run: what a failing run must close. */
export interface ToolBatch {
	assistantMessage: AssistantMessage;
	calls: CallState[];
	/** Aborts the batch's tools: the run's signal, or a failure. */
	controller: AbortController;
	/** Set when a failure took the batch over: late tool completions are then ignored. */
	closed: boolean;
	/** Stops forwarding the run's abort to `controller`. */
	unlink: () => void;
}
