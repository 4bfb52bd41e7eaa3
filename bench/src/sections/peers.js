/**
 * 9. Peers (issue 16): ours against pi-ai 0.73.1, pi-ai 1.6.0, the AI SDK 7 and the decoding
 * floor, on the lengthened captures of section 3, plus a requests-per-second row for short
 * replies over one keep-alive connection and over a new connection per request. Every side runs
 * in a worker process of its own; the run order rotates every round; the machine's load average
 * is sampled around every run, since a loaded 2-core machine moves absolute figures by 2× and more.
 */
import { loadavg } from "node:os";
import { Worker } from "../lib/child.js";
import { PEER_SIDES, missingContent, rotated } from "../lib/peers.js";
import { APIS } from "../lib/sse-bodies.js";
import { summarize } from "../lib/stats.js";

/** What a failed run is reported as: the first line of its error. @param {unknown} error */
function firstLine(error) {
	return String(error instanceof Error ? error.message : error).split("\n")[0] ?? "failed";
}

/** The most warm-up runs a side gets per cell, however unsteady its figures still are. */
const MAX_WARMUP_RUNS = 12;

/** The largest measured run, whatever the floor's cost. */
const MAX_BYTES_PER_RUN = 32_000_000;

/**
 * The largest single reply in a measured run; a longer run repeats it over more requests. A long
 * real reply is a few megabytes of SSE (32k tokens of Anthropic text is about 5 MB), and one
 * 30 MB reply would measure the cost of holding a text no model writes.
 */
const MAX_REPLY_BYTES = 4_000_000;

/**
 * Each side warms up on every cell before it is measured: at least `warmupRuns` runs of
 * `warmupBytes`, and on until two consecutive runs agree within 15 % (at most 12). The
 * CPU figure is a steady-state throughput, and V8 needs several megabytes of a stream before its
 * optimizing compiler has settled on a library's hot path (it compiles on background threads,
 * whose CPU `process.cpuUsage()` counts): measured on ours with half a megabyte of warm-up, the
 * first 2 MB runs cost 3-4× the later ones, which made the median depend on how many of them fell
 * into the measured rounds. Every side gets the same warm-up.
 *
 * A measured run is sized so that the floor spends at least `runCpuMs` of CPU on it (from its
 * cheapest warm-up run), and never less than `bytesPerRun`: on the cheap cells 2 MB were 15 ms of the
 * floor's CPU, where one scavenge or one recompilation moved a run by a third and the ratio to
 * the floor by 1.3-2.5× between runs. Every side streams the same volume in a cell, after one
 * more untimed run at that volume (V8 sizes its young generation to the allocation rate). A run
 * of more than `MAX_REPLY_BYTES` is that many bytes per reply over several requests.
 *
 * "Ours ÷ floor" is then measured on its own, from `floorPairs` back-to-back pairs of runs (the
 * order alternating), as the median of the pairs' ratios. The CPU cost of the very same run moves
 * by 2× and more on this machine (a floor worker against a second floor worker gave pair ratios
 * of 0.54-1.84), over seconds; the rotated rounds put seconds of other sides' runs between ours
 * and the floor's, and a ratio of two medians of 5 moved by ±30 % between runs of the section.
 *
 * @param {{ server: Worker, rounds: number, bytesPerRun: number, runCpuMs: number, floorPairs: number, apis?: string[], sides?: import("../lib/peers.js").PeerSide[], warmupBytes: number, warmupRuns: number, shortRequests: number, log: (line: string) => void }} options
 */
export async function measurePeers({ server, rounds, bytesPerRun, runCpuMs, floorPairs, apis = APIS, sides = PEER_SIDES, warmupBytes, warmupRuns, shortRequests, log }) {
	/** @type {Record<string, Worker>} */
	// No forced GC between runs: node's `gc()` is V8's memory-reducing collection, after which every
	// side ran its next run partly de-optimised (ours went from 17 to 40-50 CPU ms/MB on Anthropic
	// text, the floor from 16 to 19-22), so the figure measured the recovery, not the throughput.
	// A run's leftover garbage is collected during the next run, for every side alike.
	const workers = Object.fromEntries(sides.map((side) => [side, new Worker("peer-worker.js", [side])]));
	/** @type {number[]} */
	const loads = [];
	const sampleLoad = () => loads.push(/** @type {number} */ (loadavg()[0]));
	try {
		const streaming = [];
		for (const api of apis) {
			for (const cls of /** @type {const} */ (["text", "tools", "thinking"])) {
				const rowLoads = [];
				/** @type {Record<string, { cpu: number[], evs: number[], summary?: any }>} */
				const samples = Object.fromEntries(sides.map((side) => [side, { cpu: [], evs: [] }]));
				/** @type {Record<string, string>} */
				const failed = {};
				// Warm-up until steady: at least `warmupRuns` runs, then on until two consecutive runs
				// cost within 15 % of each other (CPU per MB), at most MAX_WARMUP_RUNS. Each side on its own.
				/** @type {Record<string, number>} */
				const warmupRunsTaken = {};
				let floorCost = 0;
				for (const side of sides) {
					let previous = Infinity;
					for (let run = 0; run < MAX_WARMUP_RUNS && !failed[side]; run++) {
						const warm = await server.call("load", { kind: "fixture", api, cls, targetBytes: warmupBytes });
						try {
							const result = await workers[side]?.call("run", { api, url: warm.url, requests: warm.requests });
							const cost = result.cpuMs / ((warm.bodyBytes * warm.requests) / 1e6);
							warmupRunsTaken[side] = run + 1;
							// The cheapest warm-up run is the best guess of its steady cost: noise only adds.
							if (side === "floor") floorCost = floorCost > 0 ? Math.min(floorCost, cost) : cost;
							if (run + 1 >= warmupRuns && Math.abs(cost - previous) <= 0.15 * Math.min(cost, previous)) break;
							previous = cost;
						} catch (error) {
							failed[side] = firstLine(error);
						}
					}
				}
				const totalBytes = Math.round(Math.min(MAX_BYTES_PER_RUN, Math.max(bytesPerRun, floorCost > 0 ? (runCpuMs / floorCost) * 1e6 : 0)));
				const runSpec = { kind: "fixture", api, cls, targetBytes: Math.min(totalBytes, MAX_REPLY_BYTES), totalBytes };
				for (const side of sides) {
					if (failed[side]) continue;
					const settle = await server.call("load", runSpec);
					await workers[side]?.call("run", { api, url: settle.url, requests: settle.requests }).catch((/** @type {unknown} */ error) => {
						failed[side] = firstLine(error);
					});
				}
				let info;
				for (let round = 0; round < rounds; round++) {
					for (const side of rotated(round).filter((side) => sides.includes(side))) {
						if (failed[side]) continue;
						info = await server.call("load", runSpec);
						rowLoads.push(loadavg()[0]);
						sampleLoad();
						try {
							const result = await workers[side]?.call("run", { api, url: info.url, requests: info.requests });
							const mb = (info.bodyBytes * info.requests) / 1e6;
							samples[side]?.cpu.push(result.cpuMs / mb);
							samples[side]?.evs.push((info.eventsPerRequest * info.requests) / (result.wallMs / 1000));
							/** @type {any} */ (samples[side]).summary = result.summary;
						} catch (error) {
							failed[side] = firstLine(error);
						}
					}
				}
				/** @type {number[]} */
				const pairRatios = [];
				for (let pair = 0; pair < floorPairs && !failed.ours && !failed.floor; pair++) {
					/** @type {Record<string, number>} */
					const cost = {};
					for (const side of pair % 2 === 0 ? ["ours", "floor"] : ["floor", "ours"]) {
						const run = await server.call("load", runSpec);
						try {
							const result = await workers[side]?.call("run", { api, url: run.url, requests: run.requests });
							cost[side] = result.cpuMs / ((run.bodyBytes * run.requests) / 1e6);
						} catch (error) {
							failed[side] = firstLine(error);
						}
					}
					if (cost.ours !== undefined && cost.floor !== undefined) pairRatios.push(cost.ours / cost.floor);
				}
				const want = samples.ours?.summary;
				/** @type {Record<string, any>} */
				const bySide = {};
				for (const side of sides) {
					const s = /** @type {{ cpu: number[], evs: number[], summary?: any }} */ (samples[side]);
					let missing = side === "floor" || !want || !s.summary ? [] : missingContent(want, s.summary);
					// pi-ai (both lines) keeps the Responses `*.done` events' copy of text and reasoning: on a
					// lengthened body that copy is the capture's original, shorter one. On a real reply the two
					// are equal, so this is the lengthening's artefact, not lost data: shown, still counted.
					let replacedByDone;
					if (api === "openai-responses" && (side === "ref" || side === "pi16") && missing.length > 0 && !missing.some((m) => m.startsWith("toolCalls") || m.startsWith("argsChars"))) {
						replacedByDone = missing;
						missing = [];
					}
					bySide[side] = failed[side] && s.cpu.length === 0
						? { failed: failed[side] }
						: { cpuMsPerMB: summarize(s.cpu), eventsPerSec: summarize(s.evs), content: s.summary, missing, replacedByDone, failed: failed[side] };
				}
				await server.call("clear"); // the cell's bodies: the next cell's volume differs
				const row = { api, cls, oursOverFloor: pairRatios.length ? summarize(pairRatios) : undefined, fixture: info?.fixture, mbPerRun: info ? (info.bodyBytes * info.requests) / 1e6 : 0, load: summarize(rowLoads.length ? rowLoads : [loadavg()[0]]), warmupRuns: warmupRunsTaken, sides: bySide };
				streaming.push(row);
				log(`peers ${api} ${cls} (${row.mbPerRun.toFixed(1)} MB/run): ${sides.map((side) => `${side} ${bySide[side].cpuMsPerMB ? bySide[side].cpuMsPerMB.median.toFixed(1) : "×"}${bySide[side].missing?.length ? " (drops)" : ""}`).join(", ")} CPU ms/MB; ours ÷ floor ${row.oursOverFloor ? row.oursOverFloor.median.toFixed(2) : "×"} over ${pairRatios.length} pairs; load ${row.load.median.toFixed(1)}`);
			}
		}

		const requests = [];
		const shortSides = sides;
		for (const api of apis) {
			for (const kind of /** @type {const} */ (["text", "tool"])) {
				for (const close of [false, true]) {
					/** @type {Record<string, { rps: number[], cpu: number[], summary?: any }>} */
					const samples = Object.fromEntries(shortSides.map((side) => [side, { rps: [], cpu: [] }]));
					/** @type {Record<string, string>} */
					const failed = {};
					const rowLoads = [];
					let info;
					for (let round = -1; round < rounds; round++) {
						for (const side of rotated(Math.max(0, round)).filter((side) => sides.includes(side))) {
							if (failed[side]) continue;
							info = await server.call("load", { kind: "short", api, cls: kind, close, requests: round < 0 ? Math.max(5, shortRequests >> 2) : shortRequests });
							if (round >= 0) rowLoads.push(loadavg()[0]);
							try {
								const result = await workers[side]?.call("run", { api, url: info.url, requests: info.requests });
								if (round < 0) continue; // warm-up
								samples[side]?.rps.push(info.requests / (result.wallMs / 1000));
								samples[side]?.cpu.push(result.cpuMs / info.requests);
								/** @type {any} */ (samples[side]).summary = result.summary;
							} catch (error) {
								failed[side] = firstLine(error);
							}
						}
					}
					const want = samples.ours?.summary;
					/** @type {Record<string, any>} */
					const bySide = {};
					for (const side of shortSides) {
						const s = /** @type {{ rps: number[], cpu: number[], summary?: any }} */ (samples[side]);
						const missing = side === "floor" || !want || !s.summary ? [] : missingContent(want, s.summary);
						bySide[side] = s.rps.length === 0 ? { failed: failed[side] ?? "no runs" } : { requestsPerSec: summarize(s.rps), cpuMsPerRequest: summarize(s.cpu), content: s.summary, missing, failed: failed[side] };
					}
					const row = { api, kind, connection: close ? "new" : "keep-alive", fixture: info?.fixture, requestsPerRun: shortRequests, load: summarize(rowLoads.length ? rowLoads : [loadavg()[0]]), sides: bySide };
					requests.push(row);
					sampleLoad();
					log(`requests ${api} ${kind} ${row.connection}: ${shortSides.map((side) => `${side} ${bySide[side].requestsPerSec ? Math.round(bySide[side].requestsPerSec.median) : "×"}`).join(", ")} req/s`);
				}
			}
		}
		return { rounds, bytesPerRun, runCpuMs, floorPairs, warmupBytes, warmupRuns, shortRequests, load: summarize(loads.length ? loads : [loadavg()[0]]), streaming, requests };
	} finally {
		await Promise.all(Object.values(workers).map((w) => w.close()));
	}
}
