import type { AssistantMessage, ToolResultMessage } from "@pi/ai";
import { canRetryAfterOverflow, compactBeforeCall } from "./compact-before-call.js";
import { executeToolCalls } from "./execute-tool-calls.js";
import { endFailedRun } from "./end-failed-run.js";
import { finishOpenBatch } from "./finish-open-batch.js";
import type { LoopRun } from "./loop-run-state.js";
import { guard, RunFailure } from "./run-failure.js";
import { type ReplyOutcome, streamReply } from "./stream-reply.js";
import type { AgentMessage } from "../types.js";
import { deferredPlaceholder } from "./redeem-deferred.js";

/**
 * Runs turns until the agent is done, then emits `agent_end`; resolves with the messages the run
 * added. Never rejects: a failure anywhere ends the run through {@link endFailedRun}.
 *
 * A turn: deliver pending messages (prompts, steering, follow-ups), call the model, run the
 * tools it asked for. After a turn the run ends when the signal aborted, the reply failed, was
 * aborted or deferred, every tool result asked to terminate, `maxTurns` was reached, or
 * `shouldStopAfterTurn` says so; otherwise it polls steering messages, and when there are none
 * and the model has nothing to answer, follow-up messages.
 *
 * Queues are polled only when their messages can be delivered at once, so a message is never
 * taken from a queue and then dropped.
 *
 * A call that needs approval ends the run after its turn (see `AgentTool.needsApproval`); a run
 * given `config.openToolCalls` first finishes that batch (see {@link finishOpenBatch}).
 *
 * With `config.compaction` enabled, each model call is preceded by a compaction check. A reply
 * that overflowed the context window ends its turn (its tools do not run) and the call is made
 * again once, in a new turn, after a compaction; the retry's own overflow ends the run.
 */
export async function runLoop(run: LoopRun, prompts: readonly AgentMessage[]): Promise<AgentMessage[]> {
	const { config } = run;
	const maxTurns = Math.max(1, config.maxTurns ?? Number.POSITIVE_INFINITY);
	try {
		// Held in `run.pending` from the start: a failure before delivery still delivers them.
		run.pending = [...prompts];
		// A continued transcript that ends in a deferred reply: the first turn redeems it.
		let placeholder = prompts.length === 0 ? deferredPlaceholder(run.context.messages) : undefined;
		await run.events.emit({ type: "agent_start" });
		// A batch an earlier run left open (approvals, a crash) is finished before anything else
		// reaches the transcript; while a call of it still waits for approval, the run ends here.
		const goesOn = await finishOpenBatch(run);
		// Steering queued before the run started goes with the first model call; a redemption
		// calls no model, so it stays queued until the turn after it.
		if (goesOn && !run.aborted && !placeholder) run.pending.push(...(await poll("getSteeringMessages", config.getSteeringMessages)));

		/** The reply that overflowed the context window, to compact for and ask again once. */
		let overflowReply: AssistantMessage | undefined;
		while (goesOn) {
			run.turns++;
			run.turnMessage = undefined;
			run.turnToolResults = [];
			await run.events.emit({ type: "turn_start" });
			await run.deliverPending();

			const isRetry = overflowReply !== undefined;
			// A redemption sends no context, so there is nothing to compact before it.
			if (!placeholder) await compactBeforeCall(run, overflowReply);
			overflowReply = undefined;
			let outcome: ReplyOutcome = await streamReply(run, placeholder);
			placeholder = undefined;
			while (outcome.kind === "interrupted-before-call") {
				// Interrupted before anything was sent: deliver the steering and ask again, same turn.
				run.pending = [...(await poll("getSteeringMessages", config.getSteeringMessages))];
				await run.deliverPending();
				await compactBeforeCall(run);
				outcome = await streamReply(run);
			}
			const { message, interrupted } = outcome;

			// One compaction and one retry per overflowing call; the retry's overflow ends the run.
			if (!interrupted && !isRetry && !run.aborted && canRetryAfterOverflow(run, message)) {
				overflowReply = message;
				await run.events.emit({ type: "turn_end", message, toolResults: [] });
				continue;
			}

			let toolResults: ToolResultMessage[] = [];
			let terminate = false;
			let awaiting = 0;
			if (!interrupted && runsTools(message)) ({ results: toolResults, terminate, awaiting } = await executeToolCalls(run, message));
			await run.events.emit({ type: "turn_end", message, toolResults });

			// Calls waiting for approval: nothing goes to the model until every call has a result.
			if (run.aborted || terminate || awaiting > 0 || run.turns >= maxTurns) break;
			if (!interrupted && endsRun(message)) break;
			const shouldStopAfterTurn = config.shouldStopAfterTurn;
			if (
				shouldStopAfterTurn &&
				(await guard("shouldStopAfterTurn", () =>
					shouldStopAfterTurn({ message, toolResults, context: run.context, newMessages: run.newMessages }),
				))
			) {
				break;
			}

			run.pending = [...(await poll("getSteeringMessages", config.getSteeringMessages))];
			if (run.pending.length > 0 || toolResults.length > 0) continue;
			run.pending = [...(await poll("getFollowUpMessages", config.getFollowUpMessages))];
			if (run.pending.length === 0) break;
		}
	} catch (error) {
		await endFailedRun(run, error);
	}
	run.events.windingDown = true; // nothing can follow agent_end: a throwing listener changes nothing now
	await run.events.emit({ type: "agent_end", messages: run.newMessages });
	return run.newMessages;
}

/** Tool calls run when the reply asks for them: `toolUse`, or `stop` with tool calls (some APIs say so). */
function runsTools(message: AssistantMessage): boolean {
	if (message.stopReason !== "toolUse" && message.stopReason !== "stop") return false;
	return message.content.some((block) => block.type === "toolCall");
}

/** A reply that failed, was aborted or will finish later ends the run; queued messages stay queued. */
function endsRun(message: AssistantMessage): boolean {
	return message.stopReason === "error" || message.stopReason === "aborted" || message.stopReason === "deferred";
}

async function poll(
	site: "getSteeringMessages" | "getFollowUpMessages",
	source: (() => AgentMessage[] | Promise<AgentMessage[]>) | undefined,
): Promise<AgentMessage[]> {
	if (!source) return [];
	const messages = await guard(site, source);
	if (messages === undefined || messages === null) return [];
	if (!Array.isArray(messages)) throw new RunFailure(site, new TypeError("it did not return an array"));
	return messages;
}
