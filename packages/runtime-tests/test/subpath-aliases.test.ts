/**
 * The reference's subpath names `@pi/ai/anthropic` and `@pi/ai/google` are aliases of
 * `@pi/ai/anthropic-messages` and `@pi/ai/google-generative-ai` in the built package: the same
 * file, so one module instance. A second instance would be a second provider module beside the
 * one the lazy registry loads, with module state of its own. Checked in fresh Node processes
 * without the `development` condition, as npm users load the package.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const work = mkdtempSync(join(tmpdir(), "pi-subpath-aliases-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// Module hooks run off-thread, so the load hook logs to a file: one line per file of @pi/ai's
// dist/ that the loader evaluates (once per module instance).
writeFileSync(
	join(work, "hooks.mjs"),
	`import { appendFileSync } from "node:fs";
export async function load(url, context, next) {
	const at = url.indexOf("/packages/ai/dist/");
	if (at >= 0) appendFileSync(process.env.PI_LOADED_LOG, url.slice(at + "/packages/ai/dist/".length) + "\\n");
	return next(url, context);
}`,
);
writeFileSync(join(work, "register.mjs"), `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(join(work, "hooks.mjs")).href)});`);

let runs = 0;
/** Runs an ES module `script` in a fresh node in this package's folder: its JSON output and the dist files it loaded. */
function inNode<T>(script: string): Promise<{ output: T; loaded: string[] }> {
	const log = join(work, `${++runs}.log`);
	writeFileSync(log, "");
	return new Promise((resolve, reject) => {
		execFile(
			process.execPath,
			["--import", pathToFileURL(join(work, "register.mjs")).href, "--input-type=module", "-e", script],
			{ cwd: join(import.meta.dirname, ".."), env: { ...process.env, PI_LOADED_LOG: log } },
			(error, stdout, stderr) => {
				if (error) return reject(new Error(`${error.message}\n${stderr}`));
				resolve({ output: JSON.parse(stdout || "null") as T, loaded: readFileSync(log, "utf8").split("\n").filter(Boolean) });
			},
		);
	});
}

const ALIASES = [
	{ alias: "@pi/ai/anthropic", long: "@pi/ai/anthropic-messages", file: "providers/anthropic-messages.js", names: ["streamAnthropic", "streamSimpleAnthropic"] },
	{ alias: "@pi/ai/google", long: "@pi/ai/google-generative-ai", file: "providers/google-generative-ai.js", names: ["streamGoogle", "streamSimpleGoogle"] },
];
/** Every entry of the package with a source of its own (the testing/vitest entry needs vitest). */
const ENTRIES = ["@pi/ai", "@pi/ai/testing", "@pi/ai/schema", "@pi/ai/openai-completions", "@pi/ai/openai-responses", "@pi/ai/anthropic-messages", "@pi/ai/google-generative-ai"];

describe("reference subpath aliases of the built @pi/ai", () => {
	it.each(ALIASES)("$alias is the very module namespace of $long", async ({ alias, long, file, names }) => {
		const script = `
			const short = await import(${JSON.stringify(alias)});
			const full = await import(${JSON.stringify(long)});
			console.log(JSON.stringify({ same: short === full, keys: Object.keys(short).sort() }));`;
		const { output, loaded } = await inNode<{ same: boolean; keys: string[] }>(script);
		expect(output.same).toBe(true);
		for (const name of names) expect(output.keys).toContain(name);
		expect(loaded.filter((path) => path.startsWith("providers/"))).toEqual([file]);
	});

	it("the lazy registry streams with the provider file the alias loaded, not a second copy", async () => {
		const script = `
			const alias = await import("@pi/ai/anthropic");
			const { complete } = await import("@pi/ai");
			const model = { id: "m", name: "m", api: "anthropic-messages", provider: "anthropic", baseUrl: "http://127.0.0.1:9",
				reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 1000, maxTokens: 100 };
			const reply = await complete(model, { messages: [] }, { apiKey: "k", maxRetries: 0 });
			const full = await import("@pi/ai/anthropic-messages");
			console.log(JSON.stringify({ stopReason: reply.stopReason, same: alias === full }));`;
		const { output, loaded } = await inNode<{ stopReason: string; same: boolean }>(script);
		// Port 9 refuses the connection: the provider ran and ended its stream with an error.
		expect(output.stopReason).toBe("error");
		expect(output.same).toBe(true);
		expect(loaded.filter((path) => path.startsWith("providers/"))).toEqual(["providers/anthropic-messages.js"]);
	});

	it("an alias is bundled once: its provider file holds the provider, not a re-export of a chunk of its own", async () => {
		// esbuild makes a chunk only for code two entries share. Given an alias's source a second
		// time, it would move the whole provider into a chunk that only the two names load, behind
		// two re-exporting files: one more file on every provider load.
		const loadedBy = new Map<string, string[]>();
		for (const entry of ENTRIES) loadedBy.set(entry, (await inNode(`await import(${JSON.stringify(entry)}); console.log("null");`)).loaded);
		for (const { long, file } of ALIASES) {
			const loaded = loadedBy.get(long) ?? [];
			expect(loaded).toContain(file);
			const elsewhere = new Set([...loadedBy].flatMap(([entry, paths]) => (entry === long ? [] : paths)));
			expect(loaded.filter((path) => path.startsWith("chunks/") && !elsewhere.has(path))).toEqual([]);
		}
	});
});
