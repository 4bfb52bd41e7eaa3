import { testPostgres } from "@pi/session-postgres/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCrashTest } from "../workers/crash-run.js";

let server: Awaited<ReturnType<typeof testPostgres>>;
beforeAll(async () => {
	server = await testPostgres(); // PI_TEST_POSTGRES_URL, or a throwaway server
}, 120_000);
afterAll(() => server?.stop());

describe("agents on 4 workers over pg-boss, with workers SIGKILLed and restarted", () => {
	it("complete every job of 100 three-turn sessions, with well-formed transcripts and nothing lost", async () => {
		const report = await runCrashTest({ connectionString: server.url, workers: 4, sessions: 100, turns: 3, kills: 12, crashInToolSessions: 5, timeoutMs: 420_000 });
		expect(report.problems).toEqual([]);
		expect(report.jobs.byState).toEqual({ completed: 300 });
		expect(report.kills).toBeGreaterThanOrEqual(1);
		// Sessions 0–4 crash their worker inside `multiply` of turn 2 (unless a random kill got that
		// turn first): each such crash leaves at least one interrupted result behind.
		expect(report.selfKillsInTool).toBeGreaterThanOrEqual(1);
		expect(report.selfKillsInTool).toBeLessThanOrEqual(5);
		expect(report.interruptedResults).toBeGreaterThanOrEqual(report.selfKillsInTool);
		expect(report.unexpectedExits).toBe(0);
		expect(report.workerStarts).toBeGreaterThan(4 + report.selfKillsInTool);
		expect(report.journaled).toBeGreaterThan(0);
		expect(report.lost).toBe(0);
	}, 480_000);
});
