/**
 * 4. Large tool-call arguments: one tool call of 10 KB, 100 KB and 1 MB of realistic JSON in
 * 20-character deltas, as a Chat Completions stream through each library's `stream()`. The
 * reference re-parses the whole argument text on every delta, so it is measured at 10 KB and 100 KB
 * only, with fewer runs at 100 KB. Also the decoding floor on the same stream (issue 16:
 * `eventsource-parser` plus one `JSON.parse` per event, in a peers worker), and our streaming JSON
 * parser alone against `JSON.parse`. No GC is forced between runs (see section 9: node's `gc()`
 * leaves the next run partly de-optimised); each run's garbage is collected during the next.
 */
import { runWorkerOnce, Worker } from "../lib/child.js";
import { interleaved } from "../lib/libraries.js";
import { summarize } from "../lib/stats.js";

/** @typedef {import("../lib/child.js").Worker} Worker */

export const SIZES = [10_000, 100_000, 1_000_000];

/**
 * @param {{ server: Worker, workers: Record<"ours" | "ref", Worker>, runs: number, refRunsAt100k: number, parserRuns: number, log: (line: string) => void }} options
 */
export async function measureLargeArgs({ server, workers, runs, refRunsAt100k, parserRuns, log }) {
	const floor = new Worker("peer-worker.js", ["floor"]);
	try {
		return await measure({ server, workers, floor, runs, refRunsAt100k, parserRuns, log });
	} finally {
		await floor.close();
	}
}

/**
 * @param {{ server: Worker, workers: Record<"ours" | "ref", Worker>, floor: Worker, runs: number, refRunsAt100k: number, parserRuns: number, log: (line: string) => void }} options
 */
async function measure({ server, workers, floor, runs, refRunsAt100k, parserRuns, log }) {
	const rows = [];
	for (const size of SIZES) {
		const refRuns = size === 10_000 ? runs : size === 100_000 ? refRunsAt100k : 0;
		/** @type {Record<string, number[]>} */
		const times = { ours: [], ref: [] };
		/** CPU ms of ours and of the floor, for ours ÷ floor. @type {Record<string, number[]>} */
		const cpu = { ours: [], floor: [] };
		let info;
		// Warm-up at 10 KB for each library (provider import, JIT).
		if (size === SIZES[0]) {
			for (const side of /** @type {const} */ (["ours", "ref"])) {
				const warm = await server.call("load", { kind: "large-args", argsBytes: 10_000 });
				await workers[side].call("run", { api: "openai-completions", url: warm.url, requests: 1, checkArgsBytes: 10_000 });
			}
			const warm = await server.call("load", { kind: "large-args", argsBytes: 10_000 });
			await floor.call("run", { api: "openai-completions", url: warm.url, requests: 1 });
		}
		for (let round = 0; round < Math.max(runs, refRuns); round++) {
			for (const side of interleaved(round)) {
				if (side === "ours" ? round >= runs : round >= refRuns) continue;
				info = await server.call("load", { kind: "large-args", argsBytes: size });
				const result = await workers[side].call("run", { api: "openai-completions", url: info.url, requests: 1, checkArgsBytes: size });
				times[side].push(result.wallMs);
				if (side === "ours") cpu.ours.push(result.cpuMs);
			}
			if (round < runs) {
				info = await server.call("load", { kind: "large-args", argsBytes: size });
				cpu.floor.push((await floor.call("run", { api: "openai-completions", url: info.url, requests: 1 })).cpuMs);
			}
		}
		const row = {
			argsBytes: size,
			argsChars: info.argsChars,
			deltas: info.eventsPerRequest - 5,
			sseBytes: info.bodyBytes,
			ours: summarize(times.ours),
			ref: times.ref.length > 0 ? summarize(times.ref) : null,
			oursCpu: summarize(cpu.ours),
			floorCpu: summarize(cpu.floor),
		};
		rows.push(row);
		log(`large args ${size} B: ours ${row.ours.median.toFixed(1)} ms (CPU ${(row.oursCpu.median / row.floorCpu.median).toFixed(2)}× the floor)${row.ref ? `, ref ${row.ref.median.toFixed(0)} ms (${row.ref.runs} runs)` : ", ref not measured"}`);
	}
	const at = (/** @type {number} */ size) => rows.find((r) => r.argsBytes === size);
	const parser = await runWorkerOnce("json-parser.js", [String(parserRuns), "1000000", "10000000"]);
	const parserResult = {
		oneMB: { streaming: summarize(parser["1000000"].streamingMs), jsonParse: summarize(parser["1000000"].jsonParseMs), chars: parser["1000000"].chars },
		tenMB: { streaming: summarize(parser["10000000"].streamingMs), jsonParse: summarize(parser["10000000"].jsonParseMs), chars: parser["10000000"].chars },
	};
	log(`parser alone: 1 MB ${parserResult.oneMB.streaming.median.toFixed(1)} ms vs JSON.parse ${parserResult.oneMB.jsonParse.median.toFixed(1)} ms; 10 MB ${parserResult.tenMB.streaming.median.toFixed(0)} ms`);
	return {
		rows,
		oursGrowth100kTo1M: /** @type {any} */ (at(1_000_000)).ours.median / /** @type {any} */ (at(100_000)).ours.median,
		refGrowth10kTo100k: at(100_000)?.ref && at(10_000)?.ref ? /** @type {any} */ (at(100_000)).ref.median / /** @type {any} */ (at(10_000)).ref.median : null,
		oursGrowth10kTo100k: /** @type {any} */ (at(100_000)).ours.median / /** @type {any} */ (at(10_000)).ours.median,
		parser: parserResult,
		parserGrowth1MTo10M: parserResult.tenMB.streaming.median / parserResult.oneMB.streaming.median,
	};
}
