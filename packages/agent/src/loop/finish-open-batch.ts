import { executeToolCalls } from "./execute-tool-calls.js";
import type { LoopRun } from "./loop-run-state.js";
import { lastToolBatch, NEW_MESSAGE_REJECTION } from "./open-tool-calls.js";
import { RunFailure } from "./run-failure.js";

/**
 * Finishes the batch of tool calls an earlier run left open (`config.openToolCalls`: calls that
 * waited for approval, or that a crash cut off), in a turn of its own that calls no model: its
 * `turn_end` carries the batch's assistant message and the results delivered now. A run that
 * starts with new messages (`run.pending`: a prompt) rejects the calls still pending first
 * (`NEW_MESSAGE_REJECTION`), so the messages never follow a call without a result.
 *
 * Resolves true when the run goes on to its turns: when no call is still pending and, unless
 * new messages wait to be delivered, the run was not aborted and not every result asked to
 * terminate. With no open calls it does nothing and resolves true.
 *
 * Throws a `RunFailure` naming `openToolCalls` when a call is not an unanswered call of the
 * transcript's last assistant message: acting on it would leave the transcript invalid.
 */
export async function finishOpenBatch(run: LoopRun): Promise<boolean> {
	const given = run.config.openToolCalls;
	if (!given || given.length === 0) return true;
	const prompted = run.pending.length > 0;
	const open = prompted ? given.map((call) => (call.status === "pending" ? { ...call, status: "rejected" as const, reason: NEW_MESSAGE_REJECTION } : call)) : given;
	const batch = lastToolBatch(run.context.messages);
	for (const { toolCall } of open) {
		const known = batch?.assistant.content.some((block) => block.type === "toolCall" && block.id === toolCall.id);
		if (!batch || !known || batch.answered.has(toolCall.id)) {
			throw new RunFailure("openToolCalls", new Error(`tool call ${toolCall.id} is not an unanswered call of the transcript's last assistant message`));
		}
	}
	const assistant = (batch as NonNullable<typeof batch>).assistant;
	run.turnMessage = assistant;
	run.turnToolResults = [];
	await run.events.emit({ type: "turn_start" });
	const outcome = await executeToolCalls(run, assistant, open);
	await run.events.emit({ type: "turn_end", message: assistant, toolResults: outcome.results });
	if (outcome.awaiting > 0) return false;
	// New messages are always delivered (an aborted run then ends at its model call, as usual).
	return prompted || (!outcome.terminate && !run.aborted);
}
