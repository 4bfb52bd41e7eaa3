/**
 * 7. CLI start-up: wall time of `pi-ai --help` and `pi-ai models` (the built binary,
 * packages/cli/dist/bin.js, run by node exactly as the installed `pi-ai` runs) minus a bare
 * `node -e 0` started right before each. Both run with an empty private config folder, so no
 * keys file or settings of the machine's user change what they do; their output goes to a pipe.
 * Each process also reports its own CPU time (a preload prints it at exit), the steadier figure.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { BENCH_DIR, runNode, workerPath } from "../lib/child.js";
import { summarize } from "../lib/stats.js";

/** The built CLI. */
export const CLI_BIN = join(BENCH_DIR, "..", "packages", "cli", "dist", "bin.js");

/**
 * The runs measured, by label: the two CLI commands, and, for scale, a bare import of `@pi/ai`
 * (what `pi-ai models` cannot avoid: it prints the library's catalog).
 */
const COMMANDS = /** @type {const} */ ({ help: [CLI_BIN, "--help"], models: [CLI_BIN, "models"], importAi: ["--input-type=module", "-e", 'import "@pi/ai";'] });

/**
 * @param {{ rounds: number, log: (line: string) => void }} options
 */
export async function measureCliStart({ rounds, log }) {
	const home = mkdtempSync(join(tmpdir(), "pi-bench-cli-"));
	const env = { ...process.env, XDG_CONFIG_HOME: join(home, "config"), XDG_DATA_HOME: join(home, "data"), NO_COLOR: "1" };
	try {
		const preload = ["--import", pathToFileURL(workerPath("report-cpu.mjs")).href];
		const timed = async (/** @type {string[]} */ args) => {
			const { wallMs, stderr } = await runNode([...preload, ...args], { env });
			return { wallMs, cpuMs: JSON.parse(stderr.trim().split("\n").at(-1) ?? "{}").cpuMs };
		};
		/** @type {Record<string, number[]>} */
		const wall = { help: [], models: [], importAi: [] };
		/** @type {Record<string, number[]>} */
		const cpu = { help: [], models: [], importAi: [] };
		const bareWall = [];
		const bareCpu = [];
		// Untimed: fills the OS file cache.
		await timed(["-e", "0"]);
		for (const args of Object.values(COMMANDS)) await timed([...args]);
		for (let round = 0; round < rounds; round++) {
			for (const [label, args] of Object.entries(COMMANDS)) {
				const base = await timed(["-e", "0"]);
				const cli = await timed([...args]);
				bareWall.push(base.wallMs);
				bareCpu.push(base.cpuMs);
				wall[label].push(cli.wallMs - base.wallMs);
				cpu[label].push(cli.cpuMs - base.cpuMs);
			}
		}
		const result = {
			bareNodeMs: summarize(bareWall),
			bareNodeCpuMs: summarize(bareCpu),
			help: summarize(wall.help),
			models: summarize(wall.models),
			helpCpu: summarize(cpu.help),
			modelsCpu: summarize(cpu.models),
			importAi: summarize(wall.importAi),
			importAiCpu: summarize(cpu.importAi),
		};
		log(`cli start: --help +${result.help.median.toFixed(1)} ms (CPU +${result.helpCpu.median.toFixed(1)}), models +${result.models.median.toFixed(1)} ms (CPU +${result.modelsCpu.median.toFixed(1)}) over bare node (${result.bareNodeMs.median.toFixed(1)} ms)`);
		return result;
	} finally {
		rmSync(home, { recursive: true, force: true });
	}
}
