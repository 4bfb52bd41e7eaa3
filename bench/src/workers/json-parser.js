/**
 * Our streaming JSON parser alone, without HTTP or SSE: realistic JSON fed in 20-character deltas,
 * against one `JSON.parse` of the whole text. argv: runs, then sizes in bytes. Prints one JSON line
 * with the per-run times in milliseconds.
 *
 * Steady state: each size gets `WARMUP_PASSES` untimed passes (the first one checks the result),
 * and no GC is forced between runs. With one untimed pass and a forced `gc()`, the 1 MB runs were
 * still compiling (55, 31, 33, 16, 13 ms in one run), so the 10×-size ratio measured warm-up.
 */
import { StreamingJsonParser } from "@pi/ai";
import { deltas, realisticJson } from "../lib/large-args.js";

const [runsArg, ...sizeArgs] = process.argv.slice(2);
const runs = Number(runsArg);
/** @type {Record<string, { streamingMs: number[], jsonParseMs: number[], chars: number }>} */
const results = {};
const WARMUP_PASSES = 5;

for (const size of sizeArgs.map(Number)) {
	const text = realisticJson(size);
	const pieces = deltas(text, 20);
	const expected = JSON.stringify(JSON.parse(text));
	const entry = { streamingMs: [], jsonParseMs: [], chars: text.length };
	for (let run = -WARMUP_PASSES; run < runs; run++) {
		let t0 = process.hrtime.bigint();
		const parser = new StreamingJsonParser();
		for (const piece of pieces) parser.push(piece);
		const value = parser.finish();
		const streamingMs = Number(process.hrtime.bigint() - t0) / 1e6;
		t0 = process.hrtime.bigint();
		const parsed = JSON.parse(text);
		const jsonParseMs = Number(process.hrtime.bigint() - t0) / 1e6;
		if (run === -WARMUP_PASSES && (JSON.stringify(value) !== expected || JSON.stringify(parsed) !== expected)) throw new Error(`parser result differs at ${size} B`);
		if (run >= 0) {
			entry.streamingMs.push(streamingMs);
			entry.jsonParseMs.push(jsonParseMs);
		}
	}
	results[String(size)] = entry;
}
console.log(JSON.stringify(results));
