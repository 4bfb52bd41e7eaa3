/**
 * 1. Cold start: wall time of a fresh `node` that imports a package, minus a bare `node -e` started
 * right before it. Every round measures all four imports, in an order that alternates which library
 * goes first. Each process also prints its own CPU time (`process.cpuUsage()` at the end of the
 * script), a steadier figure than wall time on a machine shared with other work.
 */
import { runNode } from "../lib/child.js";
import { interleaved, LIBRARIES } from "../lib/libraries.js";
import { summarize } from "../lib/stats.js";

const REPORT_CPU = "process.stdout.write(JSON.stringify(process.cpuUsage()));";
/** The baseline: node doing nothing but reporting its CPU time. */
const BARE = ["-e", REPORT_CPU];
/** @param {string} specifier */
const importArgs = (specifier) => ["--input-type=module", "-e", `import ${JSON.stringify(specifier)}; ${REPORT_CPU}`];

/** Wall and CPU milliseconds of one `node` run. @param {string[]} args */
async function timed(args) {
	const { wallMs, stdout } = await runNode(args);
	const cpu = JSON.parse(stdout);
	return { wallMs, cpuMs: (cpu.user + cpu.system) / 1000 };
}

/**
 * @param {{ rounds: number, log: (line: string) => void }} options
 */
export async function measureColdStart({ rounds, log }) {
	/** @type {Record<string, number[]>} */
	const wall = { "ours.ai": [], "ref.ai": [], "ours.agent": [], "ref.agent": [] };
	/** @type {Record<string, number[]>} */
	const cpu = { "ours.ai": [], "ref.ai": [], "ours.agent": [], "ref.agent": [] };
	const bareWall = [];
	const bareCpu = [];
	// One untimed pass fills the OS file cache for both libraries, so neither pays the first disk read.
	await timed(BARE);
	for (const side of /** @type {const} */ (["ours", "ref"])) for (const pkg of /** @type {const} */ (["ai", "agent"])) await timed(importArgs(LIBRARIES[side][pkg]));

	for (let round = 0; round < rounds; round++) {
		for (const pkg of /** @type {const} */ (["ai", "agent"])) {
			for (const side of interleaved(round + (pkg === "agent" ? 1 : 0))) {
				// Each import is paired with a bare node started right before it, so machine load
				// drifting during the loop shifts both alike.
				const bare = await timed(BARE);
				const loaded = await timed(importArgs(LIBRARIES[side][pkg]));
				bareWall.push(bare.wallMs);
				bareCpu.push(bare.cpuMs);
				wall[`${side}.${pkg}`].push(loaded.wallMs - bare.wallMs);
				cpu[`${side}.${pkg}`].push(loaded.cpuMs - bare.cpuMs);
			}
		}
	}
	const pair = (/** @type {string} */ pkg) => ({
		ours: summarize(wall[`ours.${pkg}`]),
		ref: summarize(wall[`ref.${pkg}`]),
		oursCpu: summarize(cpu[`ours.${pkg}`]),
		refCpu: summarize(cpu[`ref.${pkg}`]),
	});
	const result = { bareNodeMs: summarize(bareWall), bareNodeCpuMs: summarize(bareCpu), ai: pair("ai"), agent: pair("agent") };
	log(`cold start: ai ours +${result.ai.ours.median.toFixed(1)} ms, ref +${result.ai.ref.median.toFixed(1)} ms; agent ours +${result.agent.ours.median.toFixed(1)} ms, ref +${result.agent.ref.median.toFixed(1)} ms`);
	return result;
}
