/**
 * 5. Memory: peak RSS and heap of a fresh process streaming one 50 MB text reply (Chat Completions),
 * one process per run and library, the server in its own process.
 */
import { runWorkerOnce } from "../lib/child.js";
import { interleaved } from "../lib/libraries.js";
import { summarize } from "../lib/stats.js";

/** @typedef {import("../lib/child.js").Worker} Worker */

/**
 * @param {{ server: Worker, runs: number, refRuns: number, replyBytes: number, log: (line: string) => void }} options
 */
export async function measureMemory({ server, runs, refRuns, replyBytes, log }) {
	const api = "openai-completions";
	/** @type {Record<string, { rss: number[], heap: number[], baselineRss: number[], baselineHeap: number[] }>} */
	const samples = { ours: { rss: [], heap: [], baselineRss: [], baselineHeap: [] }, ref: { rss: [], heap: [], baselineRss: [], baselineHeap: [] } };
	let info;
	for (let round = 0; round < Math.max(runs, refRuns); round++) {
		for (const side of interleaved(round)) {
			if (round >= (side === "ours" ? runs : refRuns)) continue;
			info = await server.call("load", { kind: "fixture", api, cls: "text", targetBytes: replyBytes });
			const result = await runWorkerOnce("memory-client.js", [side, api, info.url], { timeoutMs: 300_000 });
			samples[side].rss.push(result.peakRssMB);
			samples[side].heap.push(result.peakHeapMB);
			samples[side].baselineRss.push(result.baselineRssMB);
			samples[side].baselineHeap.push(result.baselineHeapMB);
		}
	}
	const pack = (/** @type {"ours" | "ref"} */ side) => ({
		peakRssMB: summarize(samples[side].rss),
		peakHeapMB: summarize(samples[side].heap),
		baselineRssMB: summarize(samples[side].baselineRss),
		baselineHeapMB: summarize(samples[side].baselineHeap),
	});
	const result = { api, replyMB: info.bodyBytes / 1e6, events: info.eventsPerRequest, ours: pack("ours"), ref: pack("ref") };
	log(`memory: ours peak RSS ${result.ours.peakRssMB.median.toFixed(0)} MB heap ${result.ours.peakHeapMB.median.toFixed(0)} MB; ref RSS ${result.ref.peakRssMB.median.toFixed(0)} MB heap ${result.ref.peakHeapMB.median.toFixed(0)} MB`);
	return result;
}
