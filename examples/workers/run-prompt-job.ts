/**
 * What a worker does with one prompt job: open the session from Postgres (taking its lock),
 * append the prompt unless the log already has it (the job's idempotency key), run the agent to
 * the end of its turn, close. A retried job resumes from whatever the killed worker persisted:
 * a tool call left without a result gets its interrupted result from the Agent, and the turn
 * goes on; a turn already finished is not run again.
 */
import { Agent, type AgentTool, openSession, type Session, type SessionEntry } from "@pi/agent-core";
import type { Model } from "@pi/ai";
import type { PostgresSessionStore } from "@pi/session-postgres";
import { journaled } from "./journaled-storage.js";
import type { PromptJob } from "./prompt-job.js";

/** What the worker gives each job. */
export interface PromptJobContext {
	store: PostgresSessionStore;
	model: Model<string>;
	tools: AgentTool[];
	/** Crash-test instrumentation: journal committed entry ids here. */
	journalPath?: string;
}

/** How the job went: `ran` the agent, or found its turn `already-done` (a retry after a late crash). */
export type PromptJobOutcome = "ran" | "already-done";

/**
 * Runs one prompt job to the end of its turn.
 *
 * @throws SessionLockedError when another worker drives the session right now (the queue retries
 *   the job later); Error when the run ended in an error (also retried).
 */
export async function runPromptJob(job: PromptJob, context: PromptJobContext): Promise<PromptJobOutcome> {
	const storage = context.store.storage(job.sessionId);
	const session = await openSession(context.journalPath ? journaled(storage, job.sessionId, context.journalPath) : storage);
	try {
		const promptEntryId = session.findByIdempotencyKey(job.idempotencyKey);
		if (promptEntryId !== undefined && (await turnFinished(session, promptEntryId))) return "already-done";
		if (promptEntryId === undefined) {
			await session.appendMessage({ role: "user", content: job.prompt, timestamp: Date.now() }, { idempotencyKey: job.idempotencyKey });
		}
		const agent = new Agent({ session, initialState: { model: context.model, tools: context.tools, systemPrompt: "You do arithmetic with tools." } });
		// The prompt is in the log (now, or from an earlier attempt): continue from it. continue()
		// also resumes a turn a killed worker left in the middle of its tool calls.
		await agent.continue();
		const last = agent.state.messages[agent.state.messages.length - 1];
		if (last?.role !== "assistant" || last.stopReason !== "stop") {
			throw new Error(`session ${job.sessionId} turn ${job.turn}: the run ended with ${last?.role === "assistant" ? `stopReason ${last.stopReason}: ${last.errorMessage ?? ""}` : (last?.role ?? "nothing")}`);
		}
		return "ran";
	} finally {
		await session.close();
	}
}

/** True when an assistant message that ended the turn (stopReason `stop`) follows the prompt on the active path. */
async function turnFinished(session: Session, promptEntryId: string): Promise<boolean> {
	const path: SessionEntry[] = await session.path();
	const start = path.findIndex((entry) => entry.id === promptEntryId);
	return path.slice(start + 1).some((entry) => entry.type === "message" && entry.message.role === "assistant" && entry.message.stopReason === "stop");
}
