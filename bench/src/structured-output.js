/**
 * `pnpm --filter @pi/bench bench:structured-output`: what `output` costs while a reply streams
 * (issue 28's goal: at most 1.2× the CPU per MB of the same stream without it), per API, on the
 * built package (`dist/`).
 *
 * Each API's real `structured-output` capture is lengthened into a ~1 MB reply whose text is one
 * large JSON object (see lib/structured-bodies.js), served in 4–16 KB chunks by the replay server
 * in a process of its own. This process streams it with `stream()` and reads every event, once
 * with `output: { schema }` (incremental parse of every text delta, `partialOutput` read on
 * each, the final validation) and once without, alternating which goes first. CPU is
 * `process.cpuUsage()` of this process; steady state after untimed warm-up runs (which also pay
 * the one-time load of the validator).
 *
 * Prints a markdown report and writes bench/STRUCTURED-OUTPUT.md (`--quick`: fewer runs, nothing written).
 */
import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { stream } from "@pi/ai";
import { BENCH_DIR, Worker } from "./lib/child.js";
import { machineInfo, machineLine } from "./lib/machine.js";
import { fmt, summarize } from "./lib/stats.js";
import { ITEMS_SCHEMA } from "./lib/structured-bodies.js";

const quick = process.argv.includes("--quick");
const ROUNDS = quick ? 2 : 9;
const WARMUP = quick ? 1 : 3;
const BODY_BYTES = 1_000_000;
const REQUESTS = quick ? 1 : 4;
const APIS = ["openai-completions", "openai-responses", "anthropic-messages", "google-generative-ai"];
const PATHS = { "openai-completions": "/v1", "openai-responses": "/v1", "anthropic-messages": "", "google-generative-ai": "/v1beta" };
const OUTPUT = { schema: ITEMS_SCHEMA, name: "items" };
const MODES = ["none", "final", "partials"];
const log = (/** @type {string} */ text) => process.stderr.write(`[bench:structured-output] ${text}\n`);

const server = new Worker("replay-server.js");

function model(api, url) {
	const id = api === "anthropic-messages" ? "claude-sonnet-4-5" : "bench-model";
	return { id, name: id, api, provider: "bench", baseUrl: url + PATHS[api], reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 1_000_000, maxTokens: 100_000 };
}

/**
 * Streams `requests` replies: without `output` (`mode` "none"), with it and `partialOutput` read on
 * every text delta ("partials"), or with it and only the final `output` used ("final").
 * Returns CPU ms and MB.
 */
async function run(api, mode) {
	const withOutput = mode !== "none";
	const info = await server.call("load", { kind: "structured", api, targetBytes: BODY_BYTES, requests: REQUESTS });
	const target = model(api, info.url);
	const context = { messages: [{ role: "user", content: "List the items.", timestamp: 0 }] };
	const before = process.cpuUsage();
	let partials = 0;
	for (let i = 0; i < info.requests; i++) {
		const events = stream(target, context, { apiKey: "bench-key", ...(withOutput ? { output: OUTPUT } : {}) });
		for await (const event of events) if (mode === "partials" && event.type === "text_delta" && event.partialOutput !== undefined) partials++;
		const message = await events.result();
		if (message.stopReason !== "stop") throw new Error(`${api}: ${message.stopReason} ${message.errorMessage ?? ""}`);
		if (withOutput && message.output === undefined) throw new Error(`${api}: no output`);
	}
	const cpu = process.cpuUsage(before);
	return { cpuMs: (cpu.user + cpu.system) / 1000, mb: (info.bodyBytes * info.requests) / 1e6, partials, events: info.eventsPerRequest };
}

const rows = [];
try {
	for (const api of APIS) {
		for (let i = 0; i < WARMUP; i++) for (const mode of MODES) await run(api, mode);
		const samples = { none: [], final: [], partials: [] };
		let last;
		for (let round = 0; round < ROUNDS; round++) {
			// Rotate which mode goes first, so that none always runs on a warmer or colder machine.
			const order = MODES.map((_, i) => MODES[(i + round) % MODES.length]);
			for (const mode of order) {
				last = await run(api, mode);
				samples[mode].push(last.cpuMs / last.mb);
			}
		}
		const row = { api, mbPerRun: last.mb, eventsPerReply: last.events, none: summarize(samples.none), final: summarize(samples.final), partials: summarize(samples.partials) };
		row.finalRatio = row.final.median / row.none.median;
		row.partialsRatio = row.partials.median / row.none.median;
		rows.push(row);
		log(`${api}: ${fmt(row.none.median)} ms/MB without, ${fmt(row.final.median)} with output (${row.finalRatio.toFixed(2)}×), ${fmt(row.partials.median)} reading every partialOutput (${row.partialsRatio.toFixed(2)}×)`);
	}
} finally {
	await server.close();
}

const range = (s) => `${fmt(s.median)} (${fmt(s.min)}–${fmt(s.max)})`;
const lines = [
	"# Structured output: what `output` costs while streaming",
	"",
	`\`pnpm --filter @pi/bench bench:structured-output\`${quick ? " --quick" : ""}, ${new Date().toISOString().slice(0, 10)}, ${machineLine(machineInfo())}, load average ${loadavg()[0].toFixed(1)} at the end (a shared machine: the spreads show it).`,
	`${ROUNDS} runs per cell after ${WARMUP} warm-up runs each, rotating which of the three goes first; each run streams ${REQUESTS} replies of about 1 MB of SSE.`,
	"Goal (issue 28): with `output` set, at most 1.2× the CPU per MB of the same stream without it.",
	"",
	"Each API's real `structured-output` capture, lengthened: its delta event repeated with 12-character pieces of one large JSON object",
	"(an array of items with strings, escapes, non-ASCII characters, numbers and nested arrays), the capture's events around it kept.",
	"Three ways to consume the same stream: without `output`; with `output`, using only the final `output` (parsed once at the end,",
	"with `JSON.parse`, then validated against the schema); and with `output`, reading `partialOutput` on every text delta (each",
	"read feeds the incremental JSON parser the delta since the last one). CPU is this process's `process.cpuUsage()`; the replay",
	"server runs in a process of its own. Ratios are of medians, against the stream without `output`.",
	"",
	"| API | events per reply | CPU ms/MB without `output` | with `output` | ratio | with `output`, every `partialOutput` read | ratio |",
	"| --- | --- | --- | --- | --- | --- | --- |",
	...rows.map((row) => `| ${row.api} | ${row.eventsPerReply} | ${range(row.none)} | ${range(row.final)} | ${row.finalRatio.toFixed(2)}× | ${range(row.partials)} | ${row.partialsRatio.toFixed(2)}× |`),
	"",
];
const report = lines.join("\n");
process.stdout.write(`${report}\n`);
if (!quick) writeFileSync(join(BENCH_DIR, "STRUCTURED-OUTPUT.md"), `${report}`);
