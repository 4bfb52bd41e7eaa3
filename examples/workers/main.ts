/**
 * `pnpm --filter @pi/examples workers`: the worker fleet on one machine. Starts a throwaway
 * PostgreSQL (or uses DATABASE_URL), runs 4 workers over 20 conversations of 3 tool-using turns
 * while a few workers are SIGKILLed and restarted, then prints what the checks found.
 */
import { startPostgres } from "@pi/session-postgres/testing";
import { runCrashTest } from "./crash-run.js";

const own = process.env.DATABASE_URL ? undefined : await startPostgres();
try {
	const report = await runCrashTest({
		connectionString: process.env.DATABASE_URL ?? (own?.url as string),
		workers: 4,
		sessions: Number(process.env.SESSIONS ?? 20),
		turns: 3,
		kills: 4,
		crashInToolSessions: 2,
		log: (line) => console.log(`· ${line}`),
	});
	console.log(
		`${report.jobs.byState.completed ?? 0}/${report.jobs.expected} jobs completed, ${report.sessions} sessions, ${report.entries} entries; ` +
			`${report.kills} kills (${report.killsInTool} inside a tool) + ${report.selfKillsInTool} crashes inside a tool, ${report.workerStarts} worker starts; ` +
			`${report.interruptedResults} interrupted tool results; ${report.journaled} committed entries journaled, ${report.lost} lost; ${(report.durationMs / 1000).toFixed(1)} s`,
	);
	if (report.problems.length > 0) {
		console.log(report.problems.join("\n"));
		process.exitCode = 1;
	} else {
		console.log("every transcript is well-formed");
	}
} finally {
	await own?.stop();
}
