/**
 * 7. Type-check cost: what `tsc` spends on an application that uses each library. The app has ten
 * typed tools (`AgentTool<typeof params>` over typebox object schemas) inside
 * `new Agent({ initialState: { model, tools } })`, and looks up ten catalog models by literal id
 * (so the typed `getModel` is measured too). The same source runs against ours and against the
 * reference, with only the package names changed, in a temp folder whose `node_modules` links to
 * the installed packages (ours: the built `dist/` declarations, as an app sees them).
 *
 * Each app is checked with `skipLibCheck` (what most apps use) and without it (not in `--quick`: a
 * minute or more per app on a busy machine). A third app, the
 * same schemas with no pi library at all, gives the floor that typebox's own declarations cost.
 * Reported: type instantiations (deterministic, the figure to compare) and check time (noisy on a
 * shared machine), from `tsc --extendedDiagnostics`.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { BENCH_DIR } from "../lib/child.js";
import { LIBRARIES } from "../lib/libraries.js";
import { summarize } from "../lib/stats.js";

const run = promisify(execFile);
const require = createRequire(join(BENCH_DIR, "package.json"));
const TSC = require.resolve("typescript/bin/tsc");

/** The catalog ids the app looks up; present in both catalogs. */
const MODEL_IDS = [
	["openai", "gpt-4o-mini"],
	["openai", "gpt-4o"],
	["openai", "gpt-4.1"],
	["openai", "o3"],
	["anthropic", "claude-sonnet-4-20250514"],
	["anthropic", "claude-3-5-haiku-20241022"],
	["google", "gemini-2.5-flash"],
	["google", "gemini-2.5-pro"],
	["groq", "llama-3.3-70b-versatile"],
	["xai", "grok-3"],
];

/**
 * The app's source for one side; `withPi: false` keeps only the schemas.
 * @param {{ ai: string, agent: string } | undefined} names
 */
export function appSource(names) {
	const lines = ['import { Type } from "typebox";'];
	if (names) {
		lines.push(`import { Agent, type AgentTool } from "${names.agent}";`, `import { getModel } from "${names.ai}";`);
	}
	for (let i = 0; i < 10; i++) {
		lines.push(`const params${i} = Type.Object({ a: Type.Number(), b: Type.String(), flag: Type.Optional(Type.Boolean()), tags: Type.Array(Type.String()) });`);
		if (!names) continue;
		lines.push(
			`const tool${i}: AgentTool<typeof params${i}, { n: number }> = {`,
			`\tname: "tool${i}", label: "Tool ${i}", description: "Tool number ${i}.", parameters: params${i},`,
			`\texecute: async (_id, { a, b, tags }) => ({ content: [{ type: "text", text: b + a + tags.join() }], details: { n: a } }),`,
			"};",
		);
	}
	if (names) {
		lines.push(`export const models = [${MODEL_IDS.map(([provider, id]) => `getModel("${provider}", "${id}")`).join(", ")}];`);
		lines.push(`export const agent = new Agent({ initialState: { model: models[0]!, tools: [${Array.from({ length: 10 }, (_, i) => `tool${i}`).join(", ")}] } });`);
		lines.push('agent.subscribe((event) => { if (event.type === "agent_end") console.log(event.messages.length); });');
	} else {
		lines.push(`export const schemas = [${Array.from({ length: 10 }, (_, i) => `params${i}`).join(", ")}];`);
	}
	return `${lines.join("\n")}\n`;
}

/**
 * A temp project for one app, its `node_modules` linking to the installed packages.
 * @param {string} root
 * @param {string} name
 * @param {string} source
 */
function project(root, name, source) {
	const dir = join(root, name);
	mkdirSync(join(dir, "node_modules", "@pi"), { recursive: true });
	mkdirSync(join(dir, "node_modules", "@mariozechner"), { recursive: true });
	const link = (/** @type {string} */ pkg) => symlinkSync(realpathSync(join(BENCH_DIR, "node_modules", pkg)), join(dir, "node_modules", pkg), "dir");
	for (const pkg of [LIBRARIES.ours.ai, LIBRARIES.ours.agent, LIBRARIES.ref.ai, LIBRARIES.ref.agent]) link(pkg);
	// typebox as the app gets it: the copy our agent package resolves (the reference resolves the same version).
	symlinkSync(realpathSync(join(BENCH_DIR, "node_modules", LIBRARIES.ours.agent, "node_modules", "typebox")), join(dir, "node_modules", "typebox"), "dir");
	writeFileSync(join(dir, "package.json"), JSON.stringify({ name: `type-check-${name}`, private: true, type: "module" }));
	writeFileSync(join(dir, "app.ts"), source);
	writeFileSync(
		join(dir, "tsconfig.json"),
		JSON.stringify({ compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, noEmit: true, types: [] }, files: ["app.ts"] }),
	);
	return dir;
}

/**
 * One `tsc` run's figures.
 * @param {string} dir
 * @param {boolean} skipLibCheck
 */
export async function checkOnce(dir, skipLibCheck) {
	// Without skipLibCheck, tsc reports errors inside the reference's vendor SDK declarations (types
	// they reference but do not depend on); it still prints its figures, so those count, and the
	// errors are reported. An error in the app itself would make the comparison void: that throws.
	const { stdout, errors } = await run(process.execPath, [TSC, "-p", dir, "--extendedDiagnostics", "--skipLibCheck", String(skipLibCheck)], { maxBuffer: 64 * 1024 * 1024 })
		.then(({ stdout }) => ({ stdout, errors: 0 }))
		.catch((error) => {
			const out = String(error.stdout ?? "");
			if (/^app\.ts\(/m.test(out) || !/^Instantiations:/m.test(out)) throw new Error(`tsc failed on ${dir}: ${(out || error.message).slice(0, 2000)}`);
			return { stdout: out, errors: out.split("\n").filter((line) => /error TS\d+/.test(line)).length };
		});
	const figure = (/** @type {string} */ label) => {
		const match = new RegExp(`^${label}:\\s+([\\d.]+)`, "m").exec(stdout);
		if (!match) throw new Error(`tsc printed no "${label}" for ${dir}`);
		return Number(match[1]);
	};
	return { instantiations: figure("Instantiations"), checkSeconds: figure("Check time"), totalSeconds: figure("Total time"), memoryMB: figure("Memory used") / 1024, errors };
}

/**
 * @param {{ runs: number, runsWithoutSkipLibCheck: number, log: (text: string) => void }} options
 */
export async function measureTypeCheck({ runs, runsWithoutSkipLibCheck, log }) {
	const root = mkdtempSync(join(tmpdir(), "pi-bench-type-check-"));
	try {
		const dirs = {
			ours: project(root, "ours", appSource(LIBRARIES.ours)),
			ref: project(root, "ref", appSource(LIBRARIES.ref)),
			typeboxOnly: project(root, "typebox-only", appSource(undefined)),
		};
		/** @type {any} */
		const rows = [];
		for (const skipLibCheck of [true, false]) {
			const count = skipLibCheck ? runs : runsWithoutSkipLibCheck;
			if (count === 0) continue;
			/** @type {Record<string, any[]>} */
			const samples = { ours: [], ref: [], typeboxOnly: [] };
			for (let round = 0; round < count; round++) {
				const order = round % 2 === 0 ? ["ours", "ref", "typeboxOnly"] : ["ref", "ours", "typeboxOnly"];
				for (const side of order) {
					const figures = await checkOnce(dirs[/** @type {"ours"} */ (side)], skipLibCheck);
					samples[side]?.push(figures);
					log(`type-check ${side} skipLibCheck=${skipLibCheck}: ${figures.instantiations} instantiations, ${figures.checkSeconds} s`);
				}
			}
			/** @param {any[]} list */
			const cell = (list) => ({
				instantiations: list[0].instantiations,
				declarationErrors: list[0].errors,
				checkSeconds: summarize(list.map((figures) => figures.checkSeconds)),
				memoryMB: summarize(list.map((figures) => figures.memoryMB)),
			});
			rows.push({ skipLibCheck, ours: cell(samples.ours ?? []), ref: cell(samples.ref ?? []), typeboxOnly: cell(samples.typeboxOnly ?? []) });
		}
		return { tools: 10, modelLookups: MODEL_IDS.length, rows };
	} finally {
		rmSync(root, { recursive: true, force: true });
	}
}
