/**
 * The one kind of job: "run the agent for session S with this prompt". It carries an
 * idempotency key, stored with the prompt's entry, so that a retried job never appends its
 * prompt twice. In this example each job also names the next turn of its conversation, which the
 * worker enqueues when the turn is done (a user would send it).
 */
import { createHash } from "node:crypto";

/** The pg-boss queue the workers serve. */
export const PROMPT_QUEUE = "agent-prompt";

/** The data of a prompt job. */
export interface PromptJob {
	sessionId: string;
	/** 1-based turn of the conversation. */
	turn: number;
	/** How many turns the conversation has. */
	turns: number;
	prompt: string;
	/** Unique per (run, session, turn): the entry of the prompt carries it. */
	idempotencyKey: string;
}

/** The job of turn `turn` of `sessionId`, in the run named `runId`. */
export function promptJob(runId: string, sessionId: string, turn: number, turns: number): PromptJob {
	return {
		sessionId,
		turn,
		turns,
		prompt: `Turn ${turn} of ${turns}: add ${turn} and 2, multiply ${turn} by 3, then add 1 to the sum.`,
		idempotencyKey: `${runId}/${sessionId}/turn-${turn}`,
	};
}

/**
 * The queue's job id for a job: a UUID derived from its idempotency key, so that sending the same
 * job twice (a worker killed after enqueuing the next turn, before completing its own) stores it
 * once: pg-boss ignores a second job with the same id.
 */
export function jobIdOf(job: PromptJob): string {
	const hex = createHash("sha256").update(job.idempotencyKey).digest("hex");
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
