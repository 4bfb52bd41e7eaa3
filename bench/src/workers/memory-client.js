/**
 * One fresh process streams one long reply with one library and reports its peak memory.
 * argv: side, api, server url. Prints one JSON line.
 *
 * Peak RSS comes from the kernel (`resourceUsage().maxRSS`); peak heap is sampled every 256
 * library events (`memoryUsage().heapUsed`), plus once at the end.
 */
import { LIBRARIES } from "../lib/libraries.js";
import { benchContext, benchModel, STREAM_OPTIONS } from "../lib/models.js";

const [side, api, url] = process.argv.slice(2);
const lib = await import(LIBRARIES[/** @type {"ours" | "ref"} */ (side)].ai);

const baseline = process.memoryUsage();
let peakHeap = baseline.heapUsed;
let events = 0;
const t0 = process.hrtime.bigint();
const s = lib.stream(benchModel(/** @type {string} */ (api), /** @type {string} */ (url)), benchContext(), STREAM_OPTIONS);
for await (const _event of s) {
	if ((++events & 255) === 0) {
		const heap = process.memoryUsage().heapUsed;
		if (heap > peakHeap) peakHeap = heap;
	}
}
const message = await s.result();
const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
if (message.stopReason !== "stop") throw new Error(`${side}: ${message.stopReason}: ${message.errorMessage}`);
const text = message.content.reduce((/** @type {number} */ sum, /** @type {any} */ block) => sum + (block.type === "text" ? block.text.length : 0), 0);
console.log(
	JSON.stringify({
		peakRssMB: (process.resourceUsage().maxRSS * 1024) / 1e6,
		peakHeapMB: peakHeap / 1e6,
		baselineRssMB: baseline.rss / 1e6,
		baselineHeapMB: baseline.heapUsed / 1e6,
		events,
		textChars: text,
		wallMs,
	}),
);
