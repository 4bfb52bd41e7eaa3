import { emptyAssistantMessage, endPartialReply } from "./assistant-messages.js";
import { closeToolBatch } from "./execute-tool-calls.js";
import type { LoopRun } from "./loop-run-state.js";
import { redact, RunFailure } from "./run-failure.js";

/**
 * Ends a run that failed, with a well-formed event sequence, whatever phase it was in. (The
 * failure itself, the error that names what failed, is a {@link RunFailure}: run-failure.ts.)
 *
 * 0. a compaction in progress gets its `compaction_end` with the error (the transcript is
 *    unchanged);
 * 1. a reply being streamed is aborted and ends as the error message, keeping what streamed;
 *    any other open message gets its `message_end`;
 * 2. the tool calls of an interrupted batch are stopped and each gets its missing events and
 *    an error result;
 * 3. messages taken from the prompts or queues but not yet delivered are delivered;
 * 4. unless the reply already shows it, an `error` assistant message reports the failure
 *    (in a new turn if none is open);
 * 5. `turn_end` closes the turn. The caller then emits `agent_end`.
 *
 * From here on, event listeners that throw are ignored: the run is already ending.
 */
export async function endFailedRun(run: LoopRun, error: unknown): Promise<void> {
	const failure = error instanceof RunFailure ? error : new RunFailure("agent loop", error);
	const text = redact(failure.message, [run.config.apiKey]);
	const events = run.events;
	events.windingDown = true;
	let shown = false;

	const compacting = run.compacting;
	run.compacting = undefined;
	if (compacting) await events.emit({ type: "compaction_end", ...compacting, errorMessage: text });

	const reply = run.reply;
	run.reply = undefined;
	if (reply) reply.controller.abort(failure);
	if (reply?.started && reply.partial) {
		const message = endPartialReply(reply.partial, "error", text);
		run.turnMessage = message;
		run.append(message);
		await events.emit({ type: "message_end", message });
		shown = true;
	} else if (events.openMessage) {
		// Already in the transcript (messages are appended before their start event).
		await events.emit({ type: "message_end", message: events.openMessage });
	}

	if (run.batch) await closeToolBatch(run, run.batch, text);

	// Messages already taken from the prompts or the queues are delivered, never dropped.
	if (run.pending.length > 0 && !events.turnOpen) {
		run.turnToolResults = [];
		await events.emit({ type: "turn_start" });
	}
	await run.deliverPending();

	if (!events.turnOpen) {
		run.turnToolResults = [];
		await events.emit({ type: "turn_start" });
	}
	if (!shown) {
		const message = emptyAssistantMessage(run.config.model, "error", text);
		run.turnMessage = message;
		await run.deliver(message);
	}
	await events.emit({ type: "turn_end", message: run.turnMessage as NonNullable<LoopRun["turnMessage"]>, toolResults: run.turnToolResults });
}
