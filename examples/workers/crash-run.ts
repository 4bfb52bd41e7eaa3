/**
 * The crash test, as a function the tests and `pnpm workers` call: N worker processes serve
 * prompt jobs for many sessions while workers are SIGKILLed at random times (some right inside
 * a tool) and started again. When every job is complete, each session's log is checked, and the
 * ids the workers journaled as committed are looked up in the database.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { SessionEntry } from "@pi/agent-core";
import { createPostgresSessionStore } from "@pi/session-postgres";
import { build } from "esbuild";
import PgBoss from "pg-boss";
import { checkTranscript } from "./check-transcript.js";
import { jobIdOf, PROMPT_QUEUE, promptJob } from "./prompt-job.js";

/** Options of {@link runCrashTest}. */
export interface CrashRunOptions {
	/** Where the orchestrator reaches PostgreSQL. */
	connectionString: string;
	/** Where worker `index` reaches it (another address across a veth link). Default `connectionString`. */
	workerConnectionString?: (index: number) => string;
	/** A command worker `index` runs under, e.g. `["ip", "netns", "exec", "m1"]`. Default none. */
	workerCommandPrefix?: (index: number) => string[];
	workers?: number;
	sessions?: number;
	turns?: number;
	/** Random SIGKILLs of running workers (each restarted at once). Default 12. */
	kills?: number;
	/** Sessions whose turn 2 crashes its worker inside a tool for certain. Default 5. */
	crashInToolSessions?: number;
	/** Seconds before pg-boss gives a job of a dead worker to another. Default 8. */
	expireInSeconds?: number;
	/** Gives up (rejects, naming what is left) after this long. Default 300 s. */
	timeoutMs?: number;
	/** Progress lines. */
	log?: (line: string) => void;
}

/** What {@link runCrashTest} saw. */
export interface CrashRunReport {
	jobs: { expected: number; byState: Record<string, number> };
	sessions: number;
	kills: number;
	killsInTool: number;
	selfKillsInTool: number;
	workerStarts: number;
	/** Workers that exited other than by SIGKILL (a crash of the worker itself). */
	unexpectedExits: number;
	interruptedResults: number;
	/** The client addresses PostgreSQL saw TCP connections from during the run. */
	clientAddresses: string[];
	/** Entry ids the workers journaled as committed, and how many of them the database lacks. */
	journaled: number;
	lost: number;
	problems: string[];
	entries: number;
	durationMs: number;
}

const workerScript = fileURLToPath(new URL("./worker.ts", import.meta.url));
const examplesDir = fileURLToPath(new URL("..", import.meta.url));

/** Runs the crash test and reports; rejects only when the run cannot finish (timeout, no worker starts). */
export async function runCrashTest(options: CrashRunOptions): Promise<CrashRunReport> {
	const started = Date.now();
	const workers = options.workers ?? 4;
	const sessions = options.sessions ?? 100;
	const turns = options.turns ?? 3;
	const kills = options.kills ?? 12;
	const log = options.log ?? (() => undefined);
	const runId = `run-${started.toString(36)}`;
	const sessionSchema = `crash_${started.toString(36)}`;
	const queueSchema = `boss_${started.toString(36)}`;
	const journalDir = mkdtempSync(join(tmpdir(), "pi-crash-journal-"));
	const sessionIds = Array.from({ length: sessions }, (_, index) => `${runId}-s${String(index).padStart(3, "0")}`);
	const crashPoints = sessionIds.slice(0, Math.min(options.crashInToolSessions ?? 5, sessions)).map((id) => `2:${id}`);

	const boss = new PgBoss({ connectionString: options.connectionString, schema: queueSchema, max: 4, schedule: false, maintenanceIntervalSeconds: 1 });
	boss.on("error", (error) => log(`orchestrator pg-boss: ${error.message}`));
	const store = createPostgresSessionStore({ connectionString: options.connectionString, schema: sessionSchema });
	const children = new Map<number, ChildProcess>();
	const stderrTail: string[] = [];
	let starts = 0;
	let killsInTool = 0;
	let selfKills = 0;
	let unexpectedExits = 0;
	let stopping = false;
	let toolStartWaiter: ((index: number) => void) | undefined;

	// One bundle of the worker for the whole run: a restart then costs a plain `node` start, not a
	// TypeScript loader's. pg and pg-boss stay outside (they resolve from examples/node_modules).
	const bundleDir = join(examplesDir, "node_modules", ".cache", "pi-crash-workers");
	mkdirSync(bundleDir, { recursive: true });
	const bundle = join(bundleDir, `worker-${process.pid}-${started}.mjs`);
	await build({
		entryPoints: [workerScript],
		outfile: bundle,
		bundle: true,
		platform: "node",
		format: "esm",
		target: "node20",
		conditions: ["development"],
		external: ["pg", "pg-boss", "pg-native"],
		logLevel: "warning",
	});

	const startWorker = (index: number) => {
		starts++;
		const prefix = options.workerCommandPrefix?.(index) ?? [];
		const argv = [...prefix, process.execPath, bundle];
		const child = spawn(argv[0] as string, argv.slice(1), {
			cwd: examplesDir,
			stdio: ["ignore", "pipe", "pipe"],
			env: {
				...process.env,
				DATABASE_URL: options.workerConnectionString?.(index) ?? options.connectionString,
				PI_SESSION_SCHEMA: sessionSchema,
				PI_QUEUE_SCHEMA: queueSchema,
				PI_RUN_ID: runId,
				PI_WORKER_REPORT: "1",
				PI_WORKER_JOURNAL: join(journalDir, `worker-${index}-${starts}.log`),
				PI_WORKER_CRASH_IN_TOOL: crashPoints.join(","),
			},
		});
		children.set(index, child);
		let buffered = "";
		child.stdout?.on("data", (chunk: Buffer) => {
			// Mid-tool kills spare the crash points' own turns: those crash by themselves, once each.
			buffered += chunk.toString();
			for (let newline = buffered.indexOf("\n"); newline >= 0; newline = buffered.indexOf("\n")) {
				const line = buffered.slice(0, newline);
				buffered = buffered.slice(newline + 1);
				if (line.includes('"tool_start"') && toolStartWaiter && children.get(index) === child && !crashPoints.some((point) => line.includes(`"${point.slice(2)}"`))) toolStartWaiter(index);
				if (line.includes('"self_kill"')) selfKills++;
			}
		});
		child.stderr?.on("data", (chunk: Buffer) => {
			stderrTail.push(`worker ${index}: ${chunk.toString().trimEnd()}`);
			if (stderrTail.length > 40) stderrTail.shift();
		});
		child.on("exit", (code, signal) => {
			if (children.get(index) !== child || stopping) return;
			// A worker that died (a self-kill inside a tool, or a crash): start another, as a supervisor would.
			if (signal !== "SIGKILL") {
				unexpectedExits++;
				log(`worker ${index} exited (${code ?? signal}); restarting`);
			}
			startWorker(index);
		});
	};

	/** SIGKILLs worker `index` if it is running (the exit handler restarts it); true when it did. */
	const kill = (index: number): boolean => {
		const child = children.get(index);
		if (!child || child.exitCode !== null || child.signalCode !== null) return false;
		return child.kill("SIGKILL");
	};

	const clientAddresses = new Set<string>();
	const sampleClients = async () => {
		const rows = (await boss.getDb().executeSql("SELECT DISTINCT host(client_addr) AS address FROM pg_stat_activity WHERE client_addr IS NOT NULL", [])).rows as { address: string }[];
		for (const row of rows) clientAddresses.add(row.address);
	};
	const jobStates = async (): Promise<Record<string, number>> => {
		const rows = (await boss.getDb().executeSql(`SELECT state, count(*)::int AS n FROM ${queueSchema}.job WHERE name = $1 GROUP BY state`, [PROMPT_QUEUE])).rows as { state: string; n: number }[];
		return Object.fromEntries(rows.map((row) => [row.state, row.n]));
	};

	try {
		await boss.start();
		await boss.createQueue(PROMPT_QUEUE, { name: PROMPT_QUEUE, retryLimit: 1000, retryDelay: 1, expireInSeconds: options.expireInSeconds ?? 8 });
		await store.migrate();
		for (let index = 0; index < workers; index++) startWorker(index);
		await boss.insert(
			sessionIds.map((sessionId) => {
				const job = promptJob(runId, sessionId, 1, turns);
				return { id: jobIdOf(job), name: PROMPT_QUEUE, data: job };
			}),
		);
		log(`${sessions} sessions × ${turns} turns queued for ${workers} workers`);

		// The killer: at random moments, SIGKILL a random worker, or the next one to start a tool.
		let killed = 0;
		const expected = sessions * turns;
		while (killed < kills) {
			await sleep(200 + Math.random() * 800);
			await sampleClients();
			const states = await jobStates();
			if ((states.completed ?? 0) >= expected * 0.9) break; // keep some work for the survivors
			if (Math.random() < 0.5) {
				const index = await new Promise<number | undefined>((resolve) => {
					const timer = setTimeout(() => resolve(undefined), 2000);
					toolStartWaiter = (worker) => {
						clearTimeout(timer);
						toolStartWaiter = undefined;
						resolve(worker);
					};
				});
				toolStartWaiter = undefined;
				if (index === undefined || !kill(index)) continue;
				killsInTool++;
			} else if (!kill(Math.floor(Math.random() * workers))) {
				continue;
			}
			killed++;
		}
		log(`${killed} workers killed (${killsInTool} inside a tool); waiting for the queue to drain`);

		const deadline = started + (options.timeoutMs ?? 300_000);
		let states = await jobStates();
		while ((states.completed ?? 0) < expected) {
			if ((states.failed ?? 0) > 0) throw new Error(`${states.failed} jobs failed for good: ${JSON.stringify(states)}\n${stderrTail.join("\n")}`);
			if (Date.now() > deadline) throw new Error(`crash test timed out with jobs ${JSON.stringify(states)} of ${expected}\n${stderrTail.join("\n")}`);
			await sleep(300);
			await sampleClients();
			states = await jobStates();
		}
		stopping = true;
		await Promise.all([...children.values()].map((child) => stopChild(child)));
		log(`all ${expected} jobs complete; checking ${sessions} transcripts`);

		const problems: string[] = [];
		let interruptedResults = 0;
		let entries = 0;
		const present = new Set<string>();
		for (const sessionId of sessionIds) {
			const log = await store.storage(sessionId).load();
			const list: SessionEntry[] = [];
			for await (const entry of log.entries) list.push(entry);
			entries += list.length;
			for (const entry of list) present.add(`${sessionId} ${entry.id}`);
			const check = checkTranscript(list, sessionId, runId, turns);
			problems.push(...check.problems);
			interruptedResults += check.interruptedResults;
		}
		const journal = readdirSync(journalDir).flatMap((name) => readFileSync(join(journalDir, name), "utf8").split("\n").filter(Boolean));
		const lost = journal.filter((line) => !present.has(line));
		for (const line of lost.slice(0, 10)) problems.push(`journaled as committed but missing: ${line}`);
		return {
			jobs: { expected, byState: await jobStates() },
			sessions,
			kills: killed,
			killsInTool,
			selfKillsInTool: selfKills,
			workerStarts: starts,
			unexpectedExits,
			clientAddresses: [...clientAddresses].sort(),
			interruptedResults,
			journaled: journal.length,
			lost: lost.length,
			problems,
			entries,
			durationMs: Date.now() - started,
		};
	} finally {
		stopping = true;
		for (const child of children.values()) child.kill("SIGKILL");
		await boss.stop({ graceful: false, wait: true }).catch(() => undefined);
		await store.close();
		rmSync(journalDir, { recursive: true, force: true });
		rmSync(bundle, { force: true });
	}
}

function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** SIGTERM (the worker stops pg-boss gracefully), then SIGKILL if it lingers. */
async function stopChild(child: ChildProcess): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return;
	const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
	child.kill("SIGTERM");
	const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
	await exited;
	clearTimeout(timer);
}
