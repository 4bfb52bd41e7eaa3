/**
 * `pnpm --filter @pi/bench bench:mcp`: the cost of one tool call through @pi/mcp (issue 27),
 * on the built package (`dist/`), against its floor: the official SDK's own client calling the
 * same server directly.
 *
 * Both sides talk to their own @modelcontextprotocol/server-everything child over stdio and call
 * `get-sum` in a loop, one call at a time. Ours is `execute` of the agent tool that
 * `connectMcp(...).tools()` gives (argument passing, the request with timeout and progress
 * options, ordered delivery, mapping the result to content blocks); the floor is
 * `client.callTool()` on a `Client` over the SDK's `StdioClientTransport`. The sides alternate
 * within each round, so a busy moment of the shared machine falls on both.
 *
 * Prints a markdown report and writes bench/MCP.md (`--quick`: fewer runs, nothing written).
 */
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { connectMcp } from "@pi/mcp";
import { machineInfo, machineLine } from "./lib/machine.js";
import { fmt, summarize } from "./lib/stats.js";

const quick = process.argv.includes("--quick");
const ROUNDS = quick ? 3 : 21;
const CALLS = quick ? 200 : 500;
const WARMUP_CALLS = quick ? 100 : 500;
const log = (/** @type {string} */ text) => process.stderr.write(`[bench:mcp] ${text}\n`);

const require = createRequire(import.meta.url);
const serverBin = join(dirname(require.resolve("@modelcontextprotocol/server-everything/package.json")), "dist", "index.js");
const server = { command: process.execPath, args: [serverBin, "stdio"] };

/** Mean microseconds per call over `calls` sequential calls of `call`. */
async function perCall(/** @type {(i: number) => Promise<unknown>} */ call, /** @type {number} */ calls) {
	const started = process.hrtime.bigint();
	for (let i = 0; i < calls; i++) await call(i);
	return Number(process.hrtime.bigint() - started) / 1_000 / calls;
}

const loadAtStart = loadavg()[0];
const ours = await connectMcp(server);
const [sum] = await ours.tools({ include: ["get-sum"] });
if (!sum) throw new Error("server-everything has no get-sum tool");
const oursCall = async (/** @type {number} */ i) => {
	const result = await sum.execute(`call-${i}`, { a: i, b: 1 });
	if (result.content[0]?.type !== "text") throw new Error("unexpected result");
};

const client = new Client({ name: "bench-floor", version: "0.0.0" });
await client.connect(new StdioClientTransport(server));
const floorCall = async (/** @type {number} */ i) => {
	const result = await client.callTool({ name: "get-sum", arguments: { a: i, b: 1 } });
	if (!Array.isArray(result.content)) throw new Error("unexpected result");
};

try {
	log(`warm-up: ${WARMUP_CALLS} calls each`);
	await perCall(oursCall, WARMUP_CALLS);
	await perCall(floorCall, WARMUP_CALLS);
	/** @type {number[]} */
	const oursSamples = [];
	/** @type {number[]} */
	const floorSamples = [];
	for (let round = 0; round < ROUNDS; round++) {
		log(`round ${round + 1}/${ROUNDS}`);
		// Alternate which side goes first.
		if (round % 2 === 0) {
			oursSamples.push(await perCall(oursCall, CALLS));
			floorSamples.push(await perCall(floorCall, CALLS));
		} else {
			floorSamples.push(await perCall(floorCall, CALLS));
			oursSamples.push(await perCall(oursCall, CALLS));
		}
	}
	const o = summarize(oursSamples);
	const f = summarize(floorSamples);
	const ratio = o.median / f.median;
	// On a shared machine the fastest round is the least disturbed one: its ratio is the steadier figure.
	const bestRatio = o.min / f.min;
	const lines = [
		"# MCP benchmark (issue 27)",
		"",
		`- Date: ${new Date().toISOString().slice(0, 10)}; machine: ${machineLine(machineInfo())}`,
		`- Command: \`pnpm --filter @pi/bench bench:mcp${quick ? " --quick" : ""}\`; each cell is the median over ${ROUNDS} rounds of the mean of ${CALLS} sequential calls, with the (min–max) spread of the rounds, after ${WARMUP_CALLS} warm-up calls each. Ratio: ours / floor (lower is better).`,
		`- Load average (1 min) at the start: ${fmt(loadAtStart)} on 2 cores; on a busy machine the spread is wide and the ratio of medians moves by tens of percent between runs; the ratio of the fastest rounds (the least disturbed ones) is the steadier figure.`,
		"",
		"## One tool call over stdio: @pi/mcp against the SDK's client",
		"",
		"| server, tool | floor: SDK `client.callTool()` (µs per call) | ours: @pi/mcp agent tool `execute()` (µs per call) | ratio of medians | ratio of fastest rounds |",
		"| --- | --- | --- | --- | --- |",
		`| server-everything (stdio), \`get-sum\` | ${fmt(f.median)} (${fmt(f.min)}–${fmt(f.max)}) | ${fmt(o.median)} (${fmt(o.min)}–${fmt(o.max)}) | ${fmt(ratio)}× | ${fmt(bestRatio)}× |`,
		"",
		"Both figures include the server's own work and the round trip through two pipes, which are the same on both sides; the difference is what @pi/mcp adds per call: its own stdio transport (the SDK's framing), one microtask per message to deliver messages in order, the request options (timeout reset by progress), and the mapping of the result to content blocks.",
	];
	const markdown = lines.join("\n");
	process.stdout.write(`${markdown}\n`);
	if (!quick) writeFileSync(fileURLToPath(new URL("../MCP.md", import.meta.url)), `${markdown}\n`);
} finally {
	await ours.close();
	await client.close();
}
