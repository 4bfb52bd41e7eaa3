/**
 * `pnpm bench` entry point: runs the seven measurements of @pi/ai / @pi/agent-core against the
 * reference pi-ai / pi-agent-core in the same run, prints the markdown report and writes
 * RESULTS.md and results.json (or, with --quick, RESULTS-quick.md and results-quick.json, which
 * are not committed). `--only=cold,footprint,streaming,large-args,peers,memory,agent,cassette,cli,types,compaction` runs a subset;
 * `--peer-runs=N` repeats the peers section N times and reports the spread of its ratios between runs;
 * `--peer-apis=openai-responses,…` and `--peer-sides=ours,floor` limit the peers section to those APIs and
 * sides (to check one change; never for RESULTS.md);
 * add `--update` to merge that subset into results.json and RESULTS.md, keeping the other sections'
 * figures (a note says which sections were re-measured, when, and at which commit).
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { BENCH_DIR, Worker } from "./lib/child.js";
import { machineInfo } from "./lib/machine.js";
import { peerRatios } from "./lib/report-peers.js";
import { renderMarkdown } from "./lib/report.js";
import { measureAgentLoop } from "./sections/agent-loop.js";
import { measureCliStart } from "./sections/cli-start.js";
import { measureCassetteReplay } from "./sections/cassette-replay.js";
import { measureColdStart } from "./sections/cold-start.js";
import { measureCompaction } from "./sections/compaction.js";
import { measureFootprint, readJson } from "./sections/footprint.js";
import { measureLargeArgs } from "./sections/large-args.js";
import { measureMemory } from "./sections/memory.js";
import { measurePeers } from "./sections/peers.js";
import { measureStreaming } from "./sections/streaming.js";
import { measureTypeCheck } from "./sections/type-check.js";

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const onlyArg = args.find((arg) => arg.startsWith("--only="));
const only = onlyArg ? new Set(onlyArg.slice(7).split(",")) : undefined;
const wants = (/** @type {string} */ name) => !only || only.has(name);
const update = args.includes("--update");

/** Run counts and sizes. Full: ≥5 runs per cell except where the reference is too slow (said in the report). */
const PLAN = quick
	? { cliRounds: 3, coldRounds: 2, streamRounds: 1, bytesPerRun: 500_000, warmupBytes: 100_000, largeRuns: 1, refRunsAt100k: 0, parserRuns: 2, memoryRuns: 1, refMemoryRuns: 1, memoryBytes: 10_000_000, turns: 100, agentRuns: 1, refRunsAt5000: 1, cassetteRounds: 2, typeCheckRuns: 1, typeCheckRunsWithoutSkipLibCheck: 0, compactionRuns: 3, peerRounds: 1, peerBytes: 200_000, peerRunCpuMs: 0, peerFloorPairs: 1, peerWarmupBytes: 50_000, peerWarmupRuns: 1, shortRequests: 20 }
	: { cliRounds: 11, coldRounds: 21, streamRounds: 5, bytesPerRun: 4_000_000, warmupBytes: 1_000_000, largeRuns: 5, refRunsAt100k: 2, parserRuns: 11, memoryRuns: 5, refMemoryRuns: 3, memoryBytes: 50_000_000, turns: 1000, agentRuns: 5, refRunsAt5000: 2, cassetteRounds: 11, typeCheckRuns: 3, typeCheckRunsWithoutSkipLibCheck: 2, compactionRuns: 11, peerRounds: 5, peerBytes: 2_000_000, peerRunCpuMs: 100, peerFloorPairs: 21, peerWarmupBytes: 1_000_000, peerWarmupRuns: 4, shortRequests: 200 };

// `--peers-light`: a shorter peers section (3 rounds, 0.3 MB per run, 30 short requests) for a loaded machine.
const peerRunsArg = args.find((arg) => arg.startsWith("--peer-runs="));
const peerApisArg = args.find((arg) => arg.startsWith("--peer-apis="));
const PEER_APIS = peerApisArg ? peerApisArg.slice("--peer-apis=".length).split(",") : undefined;
const peerSidesArg = args.find((arg) => arg.startsWith("--peer-sides="));
const PEER_SIDES_WANTED = peerSidesArg ? peerSidesArg.slice("--peer-sides=".length).split(",") : undefined;
if ((PEER_APIS || PEER_SIDES_WANTED) && update) throw new Error("--peer-apis and --peer-sides measure part of section 9: it cannot --update RESULTS.md");
const PEER_RUNS = peerRunsArg ? Math.max(1, Number(peerRunsArg.slice("--peer-runs=".length)) || 1) : 1;
if (args.includes("--peers-light")) Object.assign(PLAN, { peerRounds: 3, peerBytes: 300_000, peerRunCpuMs: 30, peerFloorPairs: 7, peerWarmupBytes: 1_000_000, peerWarmupRuns: 3, shortRequests: 30 });

const log = (/** @type {string} */ text) => process.stderr.write(`[bench] ${text}\n`);
const started = Date.now();
const resultsPath = join(BENCH_DIR, quick ? "results-quick.json" : "results.json");
const markdownPath = join(BENCH_DIR, quick ? "RESULTS-quick.md" : "RESULTS.md");

/** @type {any} */
const results = {
	date: new Date().toISOString().slice(0, 10),
	machine: machineInfo(),
	command: `pnpm bench${args.length ? ` ${args.join(" ")}` : ""}`,
	commit: sourceRevision(),
	quick,
	plan: PLAN,
	notes: [],
	errors: [],
};

/** Runs one section, keeping the others going if it fails. */
async function section(/** @type {string} */ name, /** @type {() => Promise<void>} */ body) {
	if (!wants(name)) return;
	const t0 = Date.now();
	try {
		await body();
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		results.errors.push(`${name}: ${message.split("\n").slice(0, 3).join(" ")}`);
		log(`${name} FAILED: ${message}`);
	}
	log(`${name} took ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

const server = new Worker("replay-server.js");
const streamWorkers = { ours: new Worker("stream-worker.js", ["ours"]), ref: new Worker("stream-worker.js", ["ref"]) };

await section("cold", async () => {
	results.coldStart = await measureColdStart({ rounds: PLAN.coldRounds, log });
});
await section("footprint", async () => {
	const previous = quick ? readJson(join(BENCH_DIR, "results.json")) : undefined;
	if (previous?.footprint) {
		results.footprint = { ...previous.footprint, reused: true, reusedFrom: previous.date };
		log(`footprint: reused from results.json of ${previous.date}`);
	} else {
		results.footprint = await measureFootprint({ log });
	}
});
await section("streaming", async () => {
	results.streaming = await measureStreaming({ server, workers: streamWorkers, rounds: PLAN.streamRounds, bytesPerRun: PLAN.bytesPerRun, warmupBytes: PLAN.warmupBytes, log });
});
await section("large-args", async () => {
	results.largeArgs = await measureLargeArgs({ server, workers: streamWorkers, runs: PLAN.largeRuns, refRunsAt100k: PLAN.refRunsAt100k, parserRuns: PLAN.parserRuns, log });
});
await Promise.all([streamWorkers.ours.close(), streamWorkers.ref.close()]);
await section("peers", async () => {
	// `--peer-runs=N` repeats the whole section N times, for the spread between runs.
	const repeats = [];
	for (let run = 0; run < PEER_RUNS; run++) {
		const peers = await measurePeers({ server, rounds: PLAN.peerRounds, bytesPerRun: PLAN.peerBytes, runCpuMs: PLAN.peerRunCpuMs, floorPairs: PLAN.peerFloorPairs, apis: PEER_APIS, sides: PEER_SIDES_WANTED, warmupBytes: PLAN.peerWarmupBytes, warmupRuns: PLAN.peerWarmupRuns, shortRequests: PLAN.shortRequests, log });
		results.peers ??= peers;
		repeats.push(peerRatios(peers));
	}
	results.peers.repeats = repeats;
});
await section("memory", async () => {
	results.memory = await measureMemory({ server, runs: PLAN.memoryRuns, refRuns: PLAN.refMemoryRuns, replyBytes: PLAN.memoryBytes, log });
});
await server.close();
await section("agent", async () => {
	const agentWorkers = { ours: new Worker("agent-worker.js", ["ours"], ["--expose-gc"]), ref: new Worker("agent-worker.js", ["ref"], ["--expose-gc"]) };
	try {
		results.agentLoop = await measureAgentLoop({ workers: agentWorkers, turns: PLAN.turns, runs: PLAN.agentRuns, refRunsAt5000: PLAN.refRunsAt5000, contexts: [500, 5000], log });
	} finally {
		await Promise.all([agentWorkers.ours.close(), agentWorkers.ref.close()]);
	}
});
await section("types", async () => {
	results.typeCheck = await measureTypeCheck({ runs: PLAN.typeCheckRuns, runsWithoutSkipLibCheck: PLAN.typeCheckRunsWithoutSkipLibCheck, log });
});

await section("cassette", async () => {
	results.cassetteReplay = await measureCassetteReplay({ rounds: PLAN.cassetteRounds, log });
});
await section("cli", async () => {
	results.cliStart = await measureCliStart({ rounds: PLAN.cliRounds, log });
});
await section("compaction", async () => {
	results.compaction = await measureCompaction({ runs: PLAN.compactionRuns, log });
});

results.totalSeconds = (Date.now() - started) / 1000;
results.notes.push(...standingNotes(results));
const markdown = renderMarkdown(results);
process.stdout.write(`${markdown}\n`);
if (!only) {
	writeFileSync(markdownPath, `${markdown}\n`);
	writeFileSync(resultsPath, `${JSON.stringify(results, null, 2)}\n`);
	log(`wrote ${markdownPath} and ${resultsPath}`);
} else if (update && results.errors.length === 0) {
	const previous = readJson(resultsPath);
	if (!previous) throw new Error(`--update needs an earlier ${resultsPath}`);
	const sectionKeys = { cold: "coldStart", footprint: "footprint", streaming: "streaming", "large-args": "largeArgs", memory: "memory", agent: "agentLoop", cassette: "cassetteReplay", cli: "cliStart", types: "typeCheck", compaction: "compaction", peers: "peers" };
	const merged = { ...previous };
	for (const name of only) merged[sectionKeys[/** @type {keyof typeof sectionKeys} */ (name)]] = results[sectionKeys[/** @type {keyof typeof sectionKeys} */ (name)]];
	merged.notes = [...(previous.notes ?? []).filter((/** @type {string} */ note) => !note.startsWith(`Re-measured: ${[...only].join(", ")} `)), `Re-measured: ${[...only].join(", ")} on ${results.date} at commit ${results.commit ?? "?"} (\`${results.command}\`); the other sections are from the full run above.`];
	writeFileSync(markdownPath, `${renderMarkdown(merged)}\n`);
	writeFileSync(resultsPath, `${JSON.stringify(merged, null, 2)}\n`);
	log(`merged ${[...only].join(", ")} into ${markdownPath} and ${resultsPath}`);
} else {
	log("--only: RESULTS.md / results.json left unchanged");
}
log(`total ${results.totalSeconds.toFixed(1)} s`);
if (results.errors.length > 0) process.exitCode = 1;

/** The commit measured, marked when the packages have uncommitted changes; undefined outside git. */
function sourceRevision() {
	try {
		const git = (/** @type {string[]} */ gitArgs) => execFileSync("git", gitArgs, { cwd: BENCH_DIR, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
		const dirty = git(["status", "--porcelain", "--", "../packages"]) !== "";
		return `${git(["rev-parse", "--short", "HEAD"])}${dirty ? " with uncommitted changes in packages/" : ""}`;
	} catch {
		return undefined;
	}
}

/** Facts a reader needs to judge the figures, stated with every report. @param {any} r */
function standingNotes(r) {
	const notes = [
		"Both libraries get the same model object (plain JSON, `baseUrl` pointing at the replay server: `/v1` for OpenAI, the bare origin for Anthropic, `/v1beta` for Gemini), the same context and only `{ apiKey }` as options. The reference reaches the server through its vendor SDKs (openai, @anthropic-ai/sdk, @google/genai; Gemini via `httpOptions.baseUrl`); all four APIs could be pointed at the local server.",
		`Streaming volume: ${quick ? "smoke sizes" : `each run streams at least ${PLAN.bytesPerRun / 1e6} MB, ${PLAN.streamRounds} runs per cell, so each cell covers at least ${(PLAN.bytesPerRun * PLAN.streamRounds) / 1e6} MB per library`}, after an untimed warm-up of 4 runs of ${PLAN.warmupBytes / 1e6} MB per library and cell, with no GC forced between runs (steady state, as in section 9). A 20 MB body per run does not fit the time budget: the reference decodes at 50–150 CPU ms/MB.`,
		"Events/s is measured on the wall clock, CPU ms/MB with `process.cpuUsage()`; on this shared machine other work competes for the 2 cores, so the CPU figure is the steadier of the two. The streaming goal is judged on both.",
		"The reference's OpenAI Responses decoder replaces streamed text and reasoning with the `*.done` events' copies, so its final text differs on lengthened bodies; both still parse every delta event.",
	];
	if (!quick && r.largeArgs) notes.push(`Large arguments: the reference is measured at 10 KB (${PLAN.largeRuns} runs) and 100 KB (${PLAN.refRunsAt100k} runs: each takes seconds, it re-parses the whole argument text on every delta), not at 1 MB.`);
	if (!quick && r.agentLoop) notes.push(`Agent loop: the reference at 5,000 earlier messages is run ${PLAN.refRunsAt5000} times (seconds per run); every other cell ${PLAN.agentRuns} times.`);
	if (!quick && r.memory) notes.push(`Memory: ${PLAN.memoryRuns} fresh processes for ours, ${PLAN.refMemoryRuns} for the reference (it takes several seconds per 50 MB).`);
	return notes;
}
