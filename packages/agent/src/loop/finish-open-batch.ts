import { executeToolCalls } from "./execute-tool-calls.js";
import type { LoopRun } from "./loop-run-state.js";
import { lastToolBatch } from "./open-tool-calls.js";
import { RunFailure } from "./run-failure.js";

/**
 * Finishes the batch of tool calls an earlier run left open (`config.openToolCalls`: calls that
 * waited for approval, or that a crash cut off), in a turn of its own that calls no model: its
 * `turn_end` carries the batch's assistant message and the results delivered now. Resolves true
 * when the run may go on to the model: no call is still pending, the run was not aborted, and
 * not every result asked to terminate. With no open calls it does nothing and resolves true.
 *
 * Throws a `RunFailure` naming `openToolCalls` when a call is not an unanswered call of the
 * transcript's last assistant message: acting on it would leave the transcript invalid.
 */
export async function finishOpenBatch(run: LoopRun): Promise<boolean> {
	const open = run.config.openToolCalls;
	if (!open || open.length === 0) return true;
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
	return outcome.awaiting === 0 && !outcome.terminate && !run.aborted;
}
