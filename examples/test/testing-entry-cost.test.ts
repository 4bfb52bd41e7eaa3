/**
 * What `@pi/ai/testing` costs an app that never tests: nothing in its bundle. esbuild bundles an
 * app that imports the main entries of @pi/ai and @pi/agent-core (the published `dist`, no
 * `development` condition); none of the files that only `@pi/ai/testing` brings in is among its
 * inputs. Importing the testing entry does bring
 * them in, so the check is not vacuous. docs/testing.md gives the figures.
 */
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const examples = fileURLToPath(new URL("..", import.meta.url));

async function bundle(code: string): Promise<{ inputs: string[]; bytes: number }> {
	const result = await build({
		stdin: { contents: code, resolveDir: examples, loader: "js" },
		bundle: true,
		platform: "node",
		format: "esm",
		splitting: true,
		outdir: "out",
		write: false,
		metafile: true,
		logLevel: "silent",
	});
	const bytes = result.outputFiles.filter((file) => file.path.endsWith(".js")).reduce((sum, file) => sum + file.contents.length, 0);
	return { inputs: Object.keys(result.metafile.inputs), bytes };
}

describe("an app that never imports @pi/ai/testing", () => {
	it("bundles none of the testing kit", async () => {
		const app = 'import { complete } from "@pi/ai"; import { Agent } from "@pi/agent-core"; console.log(complete, Agent);';
		const withTesting = 'import { startReplayServer } from "@pi/ai/testing";\n' + app.replace("console.log(complete, Agent)", "console.log(complete, Agent, startReplayServer)");
		const [plain, tested] = await Promise.all([bundle(app), bundle(withTesting)]);
		const testingOnly = tested.inputs.filter((input) => !plain.inputs.includes(input));
		expect(testingOnly).toContainEqual(expect.stringMatching(/packages\/ai\/dist\/testing\/index\.js$/));
		expect(plain.inputs.filter((input) => input.includes("/dist/testing/"))).toEqual([]);
		expect(plain.inputs.some((input) => testingOnly.includes(input))).toBe(false);
		expect(tested.bytes).toBeGreaterThan(plain.bytes);
	});
});
