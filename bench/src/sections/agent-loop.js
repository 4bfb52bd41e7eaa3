/**
 * 6. Agent loop overhead: 1,000 turns of (tool call → result → next call) through each library's
 * `agentLoop` and its own zero-latency faux provider, after 500 and after 5,000 earlier messages.
 */
import { interleaved } from "../lib/libraries.js";
import { summarize } from "../lib/stats.js";

/** @typedef {import("../lib/child.js").Worker} Worker */

/**
 * @param {{ workers: Record<"ours" | "ref", Worker>, turns: number, runs: number, refRunsAt5000: number, contexts: number[], log: (line: string) => void }} options
 */
export async function measureAgentLoop({ workers, turns, runs, refRunsAt5000, contexts, log }) {
	// Warm-up: a short run per library.
	for (const side of /** @type {const} */ (["ours", "ref"])) await workers[side].call("run", { earlier: 50, turns: 50 });
	const rows = [];
	for (const earlier of contexts) {
		const refRuns = earlier >= 5000 ? refRunsAt5000 : runs;
		/** @type {Record<string, number[]>} */
		const msPerTurn = { ours: [], ref: [] };
		/** @type {Record<string, number[]>} */
		const cpuMsPerTurn = { ours: [], ref: [] };
		for (let round = 0; round < Math.max(runs, refRuns); round++) {
			for (const side of interleaved(round)) {
				if (round >= (side === "ours" ? runs : refRuns)) continue;
				const result = await workers[side].call("run", { earlier, turns });
				msPerTurn[side].push(result.msPerTurn);
				cpuMsPerTurn[side].push(result.cpuMs / (turns + 1));
			}
		}
		const row = {
			earlier,
			turns,
			ours: { msPerTurn: summarize(msPerTurn.ours), cpuMsPerTurn: summarize(cpuMsPerTurn.ours) },
			ref: { msPerTurn: summarize(msPerTurn.ref), cpuMsPerTurn: summarize(cpuMsPerTurn.ref) },
		};
		rows.push(row);
		log(`agent loop, ${earlier} earlier messages: ours ${row.ours.msPerTurn.median.toFixed(3)} ms/turn, ref ${row.ref.msPerTurn.median.toFixed(3)} ms/turn (${row.ref.msPerTurn.runs} runs)`);
	}
	const first = rows[0];
	const last = rows[rows.length - 1];
	return {
		rows,
		oursGrowth: last.ours.msPerTurn.median / first.ours.msPerTurn.median,
		refGrowth: last.ref.msPerTurn.median / first.ref.msPerTurn.median,
	};
}
