/**
 * 3. Streaming throughput: recorded captures, lengthened (see lib/sse-bodies.js), replayed with no
 * delay by one replay server process, decoded by each library's public `stream()` in a worker
 * process of its own. Rounds alternate which library goes first.
 *
 * Steady state, as in section 9: each library first streams `WARMUP_RUNS` untimed runs of the
 * cell, and no GC is forced between timed runs. Node's `gc()` is V8's memory-reducing collection,
 * after which the next run started partly de-optimised, so the figure measured how fast each
 * library recovered from it (ours paid more for it: 1.98× the reference's CPU on Anthropic text
 * here, 3.0× in section 9's steady state).
 */
import { interleaved } from "../lib/libraries.js";
import { APIS } from "../lib/sse-bodies.js";
import { summarize } from "../lib/stats.js";

/** @typedef {import("../lib/child.js").Worker} Worker */

/** Untimed runs per library and cell before the timed ones. */
const WARMUP_RUNS = 4;

/**
 * @param {{ server: Worker, workers: Record<"ours" | "ref", Worker>, rounds: number, bytesPerRun: number, warmupBytes: number, log: (line: string) => void }} options
 */
export async function measureStreaming({ server, workers, rounds, bytesPerRun, warmupBytes, log }) {
	const rows = [];
	for (const api of APIS) {
		for (const cls of /** @type {const} */ (["text", "tools", "thinking"])) {
			/** @type {Record<string, { eventsPerSec: number[], cpuMsPerMB: number[], summary?: any }>} */
			const samples = { ours: { eventsPerSec: [], cpuMsPerMB: [] }, ref: { eventsPerSec: [], cpuMsPerMB: [] } };
			let info;
			// Untimed warm-up per library: loads the lazily imported provider and vendor SDK, warms the JIT.
			for (const side of /** @type {const} */ (["ours", "ref"])) {
				for (let run = 0; run < WARMUP_RUNS; run++) {
					const warm = await server.call("load", { kind: "fixture", api, cls, targetBytes: warmupBytes });
					await workers[side].call("run", { api, url: warm.url, requests: warm.requests });
				}
			}
			for (let round = 0; round < rounds; round++) {
				for (const side of interleaved(round)) {
					info = await server.call("load", { kind: "fixture", api, cls, targetBytes: bytesPerRun });
					const result = await workers[side].call("run", { api, url: info.url, requests: info.requests });
					const mb = (info.bodyBytes * info.requests) / 1e6;
					samples[side].eventsPerSec.push((info.eventsPerRequest * info.requests) / (result.wallMs / 1000));
					samples[side].cpuMsPerMB.push(result.cpuMs / mb);
					samples[side].summary = result.summary;
				}
			}
			const row = {
				api,
				cls,
				fixture: info.fixture,
				mbPerRun: (info.bodyBytes * info.requests) / 1e6,
				requestsPerRun: info.requests,
				eventsPerRun: info.eventsPerRequest * info.requests,
				toolCallsPerReply: info.toolCallsPerReply,
				ours: { eventsPerSec: summarize(samples.ours.eventsPerSec), cpuMsPerMB: summarize(samples.ours.cpuMsPerMB), lastMessage: samples.ours.summary },
				ref: { eventsPerSec: summarize(samples.ref.eventsPerSec), cpuMsPerMB: summarize(samples.ref.cpuMsPerMB), lastMessage: samples.ref.summary },
			};
			rows.push(row);
			log(
				`streaming ${api} ${cls}: ours ${Math.round(row.ours.eventsPerSec.median)} ev/s ${row.ours.cpuMsPerMB.median.toFixed(1)} ms/MB; ref ${Math.round(row.ref.eventsPerSec.median)} ev/s ${row.ref.cpuMsPerMB.median.toFixed(1)} ms/MB`,
			);
		}
	}
	return rows;
}
