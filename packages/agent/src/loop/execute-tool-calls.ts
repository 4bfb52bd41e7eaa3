import {
	type AssistantMessage,
	isStandardSchema,
	parseToolArguments,
	preloadToolValidator,
	type TextContent,
	type ToolCall,
	type ToolResultMessage,
} from "@pi/ai";
import type { LoopRun } from "./loop-run-state.js";
import { toolNeedsApproval } from "./needs-approval.js";
import { closedCallResult } from "./open-tool-calls.js";
import type { CallState, ToolBatch } from "./tool-batch.js";
import { errorText, guard } from "./run-failure.js";
import { untilAborted } from "./until-aborted.js";
import type { AgentTool, AgentToolResult, AgentToolUpdateCallback, OpenToolCall } from "../types.js";

/** The text of the result of a tool call cut short by an abort. */
export const TOOL_ABORTED_TEXT = "Tool execution was aborted.";

/**
 * What a batch produced: its tool-result messages in call order, whether every call's result
 * asked to stop, and how many calls wait for approval (they have no result yet).
 */
export interface BatchOutcome {
	results: ToolResultMessage[];
	terminate: boolean;
	awaiting: number;
}

type Settled = { kind: "result"; value: unknown } | { kind: "error"; error: unknown } | { kind: "aborted" };

/**
 * Runs the tool calls of `assistantMessage` and appends their results to the transcript.
 *
 * Each call gets `tool_execution_start`, any `tool_execution_update`s, `tool_execution_end`, then
 * its tool-result message (`message_start`/`message_end`). Before `execute`, the arguments are
 * validated against the tool's schema; an unknown tool, invalid arguments, a blocked call, a
 * throwing tool or an invalid result becomes an error result for the model.
 *
 * - `sequential`: one call after the other, each delivered before the next starts.
 * - `parallel` (default): calls are prepared in order, then run concurrently (a tool with
 *   `executionMode: "sequential"` waits for the calls before it and runs alone);
 *   `tool_execution_end` comes in completion order, tool-result messages in call order.
 * - An abort gives every unfinished call an aborted result at once, without waiting for tools
 *   that ignore the signal.
 * - A call whose tool `needsApproval` (checked after validation, before `beforeToolCall`) gets a
 *   `tool_approval_request` event instead of its execution events and result; it is counted in
 *   `awaiting`.
 * - With `open` (a batch an earlier run left open, see `openToolCalls`), only those calls are
 *   handled: approved ones run without asking again, rejected and interrupted ones get their
 *   error results with the usual events, pending ones are left waiting.
 */
export async function executeToolCalls(run: LoopRun, assistantMessage: AssistantMessage, open?: readonly OpenToolCall[]): Promise<BatchOutcome> {
	const controller = new AbortController();
	const forwardAbort = () => controller.abort(run.signal?.reason);
	if (run.aborted) forwardAbort();
	else run.signal?.addEventListener("abort", forwardAbort, { once: true });
	const fresh = (call: ToolCall, openCall?: OpenToolCall): CallState => ({
		call,
		tool: undefined,
		args: undefined,
		started: false,
		ready: false,
		outcome: undefined,
		message: undefined,
		open: openCall,
		awaiting: false,
	});
	const calls: CallState[] = open
		? open.map((openCall) => fresh(openCall.toolCall, openCall))
		: assistantMessage.content.flatMap((block) => (block.type === "toolCall" ? [fresh(block)] : []));
	const batch: ToolBatch = {
		assistantMessage,
		calls,
		controller,
		closed: false,
		unlink: () => run.signal?.removeEventListener("abort", forwardAbort),
	};
	run.batch = batch;
	// A listener that throws on tool progress fails the run: stop the tools now, not at their end.
	run.events.onDetachedFailure = () => controller.abort();

	if ((run.config.toolExecution ?? "parallel") === "sequential") {
		for (const state of calls) {
			await prepare(run, batch, state);
			if (state.ready) await execute(run, batch, state);
			await deliverResult(run, batch, state);
		}
	} else {
		for (const state of calls) await prepare(run, batch, state);
		let running: Promise<void>[] = [];
		for (const state of calls) {
			if (!state.ready) continue;
			if (state.tool?.executionMode === "sequential") {
				await Promise.all(running);
				running = [];
				await execute(run, batch, state);
			} else {
				running.push(execute(run, batch, state));
			}
		}
		await Promise.all(running);
		for (const state of calls) await deliverResult(run, batch, state);
	}

	batch.unlink();
	run.batch = undefined;
	run.events.onDetachedFailure = undefined;
	const results = calls.flatMap((state) => (state.message ? [state.message] : []));
	const terminate = calls.length > 0 && calls.every((state) => state.outcome?.result.terminate === true);
	return { results, terminate, awaiting: calls.filter((state) => state.awaiting).length };
}

/**
 * Closes a batch that a failure interrupted: aborts its tools, and gives every call without a
 * result message its missing events and an error result naming `reason`, in call order.
 */
export async function closeToolBatch(run: LoopRun, batch: ToolBatch, reason: string): Promise<void> {
	batch.closed = true;
	batch.unlink();
	batch.controller.abort();
	run.batch = undefined;
	run.events.onDetachedFailure = undefined;
	for (const state of batch.calls) {
		if (state.message) continue;
		const { call } = state;
		if (!state.started) {
			state.started = true;
			await run.events.emit({ type: "tool_execution_start", toolCallId: call.id, toolName: call.name, args: call.arguments });
		}
		if (!state.outcome) {
			const result = textResult(`Tool call was not completed: ${reason}`);
			state.outcome = { result, isError: true };
			await run.events.emit({ type: "tool_execution_end", toolCallId: call.id, toolName: call.name, result, isError: true });
		}
		const message = resultMessage(state);
		run.turnToolResults.push(message);
		await run.deliver(message);
	}
}

/**
 * Emits the start, finds the tool, validates the arguments and asks `beforeToolCall`; for a tool
 * with `needsApproval`, the start comes after the check, and a call that must wait gets
 * `tool_approval_request` instead. A call of an open batch that is not approved only gets its
 * start and its error result (or, pending, nothing).
 */
async function prepare(run: LoopRun, batch: ToolBatch, state: CallState): Promise<void> {
	const { call, open } = state;
	if (open && open.status !== "approved") {
		if (open.status === "pending") {
			state.awaiting = true;
			return;
		}
		await start(run, state);
		return settle(run, state, closedCallResult(open), true);
	}
	const signal = batch.controller.signal;
	// A call that may need approval starts only once it is known not to wait (the predicate needs
	// the validated arguments); any other call starts first, as it always has.
	const mayWait = !open && (run.context.tools ?? []).some((tool) => tool.name === call.name && tool.needsApproval);
	if (!mayWait) await start(run, state);
	let problem = signal.aborted ? TOOL_ABORTED_TEXT : await resolveArguments(run, state);
	if (mayWait) {
		if (problem === undefined) {
			const raced = await untilAborted(toolNeedsApproval(state.tool as AgentTool<any>, call.id, state.args, run.context.messages), signal);
			if (batch.closed) return;
			if (raced.aborted) problem = TOOL_ABORTED_TEXT;
			else if (raced.value) {
				state.awaiting = true;
				await run.events.emit({ type: "tool_approval_request", toolCallId: call.id, toolName: call.name, args: call.arguments });
				return;
			}
		}
		await start(run, state);
	}
	if (problem !== undefined) return settle(run, state, textResult(problem), true);

	const beforeToolCall = run.config.beforeToolCall;
	if (beforeToolCall) {
		const raced = await untilAborted(
			guard("beforeToolCall", () =>
				beforeToolCall(
					{ assistantMessage: batch.assistantMessage, toolCall: call, args: state.args, context: run.context },
					batch.controller.signal,
				),
			),
			batch.controller.signal,
		);
		if (batch.closed) return;
		if (raced.aborted) return settle(run, state, textResult(TOOL_ABORTED_TEXT), true);
		const decision = raced.value;
		if (decision?.block) {
			return settle(run, state, textResult(decision.reason ?? `Tool call "${call.name}" was blocked.`), true);
		}
	}
	if (batch.controller.signal.aborted) return settle(run, state, textResult(TOOL_ABORTED_TEXT), true);
	state.ready = true;
}

/** Emits the call's `tool_execution_start`. */
async function start(run: LoopRun, state: CallState): Promise<void> {
	state.started = true;
	await run.events.emit({ type: "tool_execution_start", toolCallId: state.call.id, toolName: state.call.name, args: state.call.arguments });
}

/** Finds the call's tool and validates its arguments; returns the error text for the model, if any. */
async function resolveArguments(run: LoopRun, state: CallState): Promise<string | undefined> {
	const { call } = state;
	const tools = run.context.tools ?? [];
	const tool = tools.find((candidate) => candidate.name === call.name);
	if (!tool) {
		const names = tools.map((candidate) => `"${candidate.name}"`).join(", ") || "none";
		return `Tool "${call.name}" not found. Available tools: ${names}.`;
	}
	state.tool = tool;
	try {
		const raw = tool.prepareArguments ? tool.prepareArguments(call.arguments) : call.arguments;
		// typebox's compiler loads once, and only for tools that use it.
		if (!isStandardSchema(tool.parameters)) await preloadToolValidator();
		state.args = await parseToolArguments(tool, { ...call, arguments: raw as Record<string, unknown> });
		return undefined;
	} catch (error) {
		// The model gets the validator's `path: problem` lines and can retry; `execute` never runs.
		return errorText(error);
	}
}

/** Runs a prepared call, then `afterToolCall`, then emits `tool_execution_end`. */
async function execute(run: LoopRun, batch: ToolBatch, state: CallState): Promise<void> {
	const { call } = state;
	const tool = state.tool as AgentTool<any>;
	const signal = batch.controller.signal;
	if (signal.aborted) return settle(run, state, textResult(TOOL_ABORTED_TEXT), true);
	const onUpdate: AgentToolUpdateCallback = (partialResult) => {
		if (state.outcome || batch.closed) return; // progress after the end is dropped
		run.events.emitDetached({
			type: "tool_execution_update",
			toolCallId: call.id,
			toolName: call.name,
			args: call.arguments,
			partialResult,
		});
	};
	const settled = await runTool(tool, call.id, state.args, signal, onUpdate);
	if (batch.closed) return;
	run.events.throwIfFailed();

	if (settled.kind === "aborted") return settle(run, state, textResult(TOOL_ABORTED_TEXT), true);
	let result: AgentToolResult<unknown>;
	let isError: boolean;
	if (settled.kind === "error") {
		result = textResult(errorText(settled.error));
		isError = true;
	} else if (!isToolResult(settled.value)) {
		result = textResult(`Tool "${call.name}" returned an invalid result: expected { content: [...], details }.`);
		isError = true;
	} else {
		// A copy, so that overrides never touch the object the tool returned.
		result = { ...settled.value };
		isError = false;
	}

	const afterToolCall = run.config.afterToolCall;
	if (afterToolCall) {
		const raced = await untilAborted(
			guard("afterToolCall", () =>
				afterToolCall(
					{ assistantMessage: batch.assistantMessage, toolCall: call, args: state.args, result, isError, context: run.context },
					signal,
				),
			),
			signal,
		);
		if (batch.closed) return;
		run.events.throwIfFailed();
		if (raced.aborted) return settle(run, state, textResult(TOOL_ABORTED_TEXT), true);
		const override = raced.value;
		if (override) {
			if (override.content !== undefined) result.content = override.content;
			if (override.details !== undefined) result.details = override.details;
			if (override.terminate !== undefined) result.terminate = override.terminate;
			if (override.isError !== undefined) isError = override.isError;
		}
	}
	return settle(run, state, result, isError);
}

/** Records the call's final result and emits `tool_execution_end`. */
async function settle(run: LoopRun, state: CallState, result: AgentToolResult<unknown>, isError: boolean): Promise<void> {
	state.outcome = { result, isError };
	await run.events.emit({ type: "tool_execution_end", toolCallId: state.call.id, toolName: state.call.name, result, isError });
}

/** Appends the call's tool-result message and emits its `message_start`/`message_end`. */
async function deliverResult(run: LoopRun, batch: ToolBatch, state: CallState): Promise<void> {
	if (batch.closed || state.message || !state.outcome) return;
	const message = resultMessage(state);
	run.turnToolResults.push(message);
	await run.deliver(message);
}

function resultMessage(state: CallState): ToolResultMessage {
	const outcome = state.outcome as NonNullable<CallState["outcome"]>;
	const message: ToolResultMessage = {
		role: "toolResult",
		toolCallId: state.call.id,
		toolName: state.call.name,
		content: outcome.result.content,
		details: outcome.result.details,
		isError: outcome.isError,
		timestamp: Date.now(),
	};
	state.message = message;
	return message;
}

/** Runs `execute`, settling at once on abort; a late result or rejection is absorbed. */
function runTool(
	tool: AgentTool<any>,
	toolCallId: string,
	args: unknown,
	signal: AbortSignal,
	onUpdate: AgentToolUpdateCallback,
): Promise<Settled> {
	return new Promise<Settled>((resolve) => {
		const onAbort = () => resolve({ kind: "aborted" });
		signal.addEventListener("abort", onAbort, { once: true });
		let running: Promise<unknown>;
		try {
			running = Promise.resolve(tool.execute(toolCallId, args, signal, onUpdate));
		} catch (error) {
			running = Promise.reject(error);
		}
		running.then(
			(value) => {
				signal.removeEventListener("abort", onAbort);
				resolve({ kind: "result", value });
			},
			(error: unknown) => {
				signal.removeEventListener("abort", onAbort);
				resolve({ kind: "error", error });
			},
		);
	});
}

function textResult(text: string): AgentToolResult<Record<string, never>> {
	const content: TextContent[] = [{ type: "text", text }];
	return { content, details: {} };
}

function isToolResult(value: unknown): value is AgentToolResult<unknown> {
	return typeof value === "object" && value !== null && Array.isArray((value as { content?: unknown }).content);
}
