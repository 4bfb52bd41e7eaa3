/**
 * A worker process: takes prompt jobs from pg-boss, runs the agent for each, completes the job,
 * and enqueues the conversation's next turn. Stateless: any worker can take any session.
 *
 * Environment: DATABASE_URL (required); PI_SESSION_SCHEMA (default pi_sessions); PI_QUEUE_SCHEMA
 * (default pgboss); PI_WORKER_CONCURRENCY (jobs at a time, default 2); PI_WORKER_JOURNAL (crash-test instrumentation); PI_WORKER_REPORT=1 prints
 * JSON lines about what it does (tool starts, jobs) for the crash test to time its kills;
 * PI_WORKER_CRASH_IN_TOOL="<turn>:<session id>,…" makes the worker SIGKILL itself when the
 * `multiply` tool of that turn of those sessions starts (a crash inside a tool, for certain).
 */
import PgBoss from "pg-boss";
import { createPostgresSessionStore } from "@pi/session-postgres";
import { jobIdOf, PROMPT_QUEUE, type PromptJob, promptJob } from "./prompt-job.js";
import { runPromptJob } from "./run-prompt-job.js";
import { registerScriptedModel } from "./scripted-model.js";
import { arithmeticTools } from "./tools.js";

const connectionString = process.env.DATABASE_URL;
if (!connectionString) throw new Error("worker: set DATABASE_URL to the PostgreSQL server of the sessions and the queue");
const report = process.env.PI_WORKER_REPORT === "1" ? (event: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(event)}\n`) : () => undefined;

const store = createPostgresSessionStore({ connectionString, schema: process.env.PI_SESSION_SCHEMA ?? "pi_sessions", poolOptions: { max: 3 } });
const boss = new PgBoss({ connectionString, schema: process.env.PI_QUEUE_SCHEMA ?? "pgboss", max: 3, migrate: false, schedule: false, maintenanceIntervalSeconds: 1 });
boss.on("error", (error) => process.stderr.write(`worker ${process.pid}: pg-boss: ${error.message}\n`));
const { model, refill } = registerScriptedModel();
const crashPoints = new Set((process.env.PI_WORKER_CRASH_IN_TOOL ?? "").split(",").filter(Boolean));
/** The tools of one job: they report their start, and crash the worker at that job's crash point. */
const toolsFor = (job: PromptJob) =>
	arithmeticTools((toolName, toolCallId) => {
		report({ event: "tool_start", toolName, toolCallId, sessionId: job.sessionId, turn: job.turn });
		if (toolName === "multiply" && crashPoints.has(`${job.turn}:${job.sessionId}`)) {
			report({ event: "self_kill", sessionId: job.sessionId, turn: job.turn });
			process.kill(process.pid, "SIGKILL");
		}
	});
const runId = process.env.PI_RUN_ID ?? "run";

await boss.start();
await store.migrate();
const handle = async ([job]: PgBoss.Job<PromptJob>[]) => {
	if (!job) return;
	const data = job.data;
	report({ event: "job_start", sessionId: data.sessionId, turn: data.turn });
	refill();
	const outcome = await runPromptJob(data, { store, model, tools: toolsFor(data), journalPath: process.env.PI_WORKER_JOURNAL });
	if (data.turn < data.turns) {
		const next = promptJob(runId, data.sessionId, data.turn + 1, data.turns);
		await boss.send(PROMPT_QUEUE, next, { id: jobIdOf(next) });
	}
	report({ event: "job_end", sessionId: data.sessionId, turn: data.turn, outcome });
};
// pg-boss 10 runs one job at a time per work() loop: several loops give a worker concurrency.
for (let loop = 0; loop < Number(process.env.PI_WORKER_CONCURRENCY ?? 2); loop++) {
	await boss.work<PromptJob>(PROMPT_QUEUE, { pollingIntervalSeconds: 0.5, batchSize: 1 }, handle);
}
report({ event: "ready" });

const stop = async () => {
	await boss.stop({ graceful: true, wait: true, timeout: 5000 });
	await store.close();
	process.exit(0);
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
