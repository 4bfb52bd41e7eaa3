/**
 * Our streaming JSON parser alone, without HTTP or SSE: realistic JSON fed in 20-character deltas,
 * against one `JSON.parse` of the whole text. argv: runs, then sizes in bytes. Prints one JSON line
 * with the per-run times in milliseconds.
 */
import { StreamingJsonParser } from "@pi/ai";
import { deltas, realisticJson } from "../lib/large-args.js";

const [runsArg, ...sizeArgs] = process.argv.slice(2);
const runs = Number(runsArg);
/** @type {Record<string, { streamingMs: number[], jsonParseMs: number[], chars: number }>} */
const results = {};

for (const size of sizeArgs.map(Number)) {
	const text = realisticJson(size);
	const pieces = deltas(text, 20);
	const expected = JSON.stringify(JSON.parse(text));
	const entry = { streamingMs: [], jsonParseMs: [], chars: text.length };
	// One untimed pass of each, so both run optimised code.
	for (let run = -1; run < runs; run++) {
		globalThis.gc?.();
		let t0 = process.hrtime.bigint();
		const parser = new StreamingJsonParser();
		for (const piece of pieces) parser.push(piece);
		const value = parser.finish();
		const streamingMs = Number(process.hrtime.bigint() - t0) / 1e6;
		globalThis.gc?.();
		t0 = process.hrtime.bigint();
		const parsed = JSON.parse(text);
		const jsonParseMs = Number(process.hrtime.bigint() - t0) / 1e6;
		if (run === -1 && (JSON.stringify(value) !== expected || JSON.stringify(parsed) !== expected)) throw new Error(`parser result differs at ${size} B`);
		if (run >= 0) {
			entry.streamingMs.push(streamingMs);
			entry.jsonParseMs.push(jsonParseMs);
		}
	}
	results[String(size)] = entry;
}
console.log(JSON.stringify(results));
