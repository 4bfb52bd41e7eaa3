import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { packageFolder } from "./helpers/package-folder.js";

/**
 * Every ```ts example in docs/ runs: each block is written to a file in a scratch folder under the
 * system's temp folder, whose `node_modules` links to this package's dependencies (`@pi/ai`,
 * `@pi/agent-core`, `@pi/otel`, the OpenTelemetry SDK, …) and tsx, and run offline with tsx. The scratch folder is removed after the
 * tests; were the run killed first, what is left is in the temp folder, never in the repository. No provider key is set,
 * so examples that name a real provider end with an error message, not a crash or a hang.
 * A block is a runnable example when it imports from `@pi/…`; blocks without imports are
 * signatures or continuations of the block before, and blocks that sketch types (`declare`),
 * wait for a live local server (`localhost:<port>`) or are vitest files are not run.
 */
const run = promisify(execFile);
const docs = fileURLToPath(new URL("../../docs/", import.meta.url));
const examples = fileURLToPath(new URL("..", import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), "pi-docs-examples-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
mkdirSync(join(scratch, "node_modules"));
// Every package this one depends on (the @pi packages, and what pages import beside them, such as
// the OpenTelemetry SDK), as an app that installed them would have them.
for (const name of readdirSync(join(examples, "node_modules"))) {
	if (!name.startsWith(".")) symlinkSync(realpathSync(join(examples, "node_modules", name)), join(scratch, "node_modules", name), "dir");
}
symlinkSync(packageFolder("tsx"), join(scratch, "node_modules", "tsx"), "dir");

function blocks(file: string): string[] {
	const text = readFileSync(file, "utf8");
	return [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] ?? "");
}

const pages = readdirSync(docs, { recursive: true })
	.map(String)
	.filter((name) => name.endsWith(".md"))
	.sort();
const readme = fileURLToPath(new URL("../../README.md", import.meta.url));

describe("the README's first example", () => {
	it("runs offline and shows why it failed: stopReason and errorMessage, not only a cost of 0", async () => {
		const file = join(scratch, "readme_0.mts");
		writeFileSync(file, blocks(readme)[0] ?? "");
		const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", "--conditions=development", file], { env, timeout: 90_000, cwd: scratch });
		expect(stderr).toBe("");
		expect(stdout.trim()).toBe('error No API key for provider "openai": pass options.apiKey or set OPENAI_API_KEY. 0');
	});
});

const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/_API_KEY$|^PI_|_BASE_URL$|_OAUTH_TOKEN$/.test(key)));

describe("docs examples run", () => {
	for (const page of pages) {
		blocks(join(docs, page)).forEach((code, index) => {
			const standalone = /^import .* from "@pi\//m.test(code);
			const sketch = !standalone || /^declare /m.test(code) || /localhost:\d+/.test(code) || /from "vitest"/.test(code);
			const name = `${page} example ${index + 1}`;
			if (sketch) return; // type sketches and live-server snippets: not runnable offline
			it(name, async () => {
				const file = join(scratch, `${page.replace(/[/.]/g, "_")}_${index}.mts`);
				writeFileSync(file, code);
				const { stderr } = await run(process.execPath, ["--import", "tsx", "--conditions=development", file], {
					env,
					timeout: 90_000,
					cwd: scratch,
				});
				expect(stderr).not.toMatch(/Error/);
			});
		});
	}
});
