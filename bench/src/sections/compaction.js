/**
 * 7. Compaction: `estimateContextTokens` and `findCutPoint` on transcripts of 1,000 and 10,000
 * messages, in a fresh process. Both must be linear in the transcript's size: 10× the messages
 * may cost at most 12× the time.
 */
import { runWorkerOnce } from "../lib/child.js";
import { summarize } from "../lib/stats.js";

export const COMPACTION_SIZES = [1_000, 10_000, 100_000];

/** @param {{ runs: number, log: (line: string) => void }} options */
export async function measureCompaction({ runs, log }) {
	const raw = await runWorkerOnce("compaction.js", [String(runs), ...COMPACTION_SIZES.map(String)], { execArgv: ["--expose-gc"], timeoutMs: 400_000 });
	const rows = COMPACTION_SIZES.map((size) => {
		const entry = raw[String(size)];
		return {
			messages: size,
			tokens: entry.tokens,
			firstKeptIndex: entry.firstKeptIndex,
			estimate: summarize(entry.estimateMs),
			cut: summarize(entry.cutMs),
			estimateCpu: summarize(entry.estimateCpuMs),
			cutCpu: summarize(entry.cutCpuMs),
		};
	});
	const at = (/** @type {number} */ size) => /** @type {any} */ (rows.find((row) => row.messages === size));
	const result = {
		rows,
		// Judged on CPU time: on a shared 2-core machine, wall time mostly measures the neighbours.
		estimateGrowth1kTo10k: at(10_000).estimateCpu.median / at(1_000).estimateCpu.median,
		cutGrowth1kTo10k: at(10_000).cutCpu.median / at(1_000).cutCpu.median,
	};
	for (const row of rows) log(`compaction, ${row.messages} messages: estimate ${row.estimateCpu.median.toFixed(2)} CPU ms, findCutPoint ${row.cutCpu.median.toFixed(2)} CPU ms`);
	return result;
}
