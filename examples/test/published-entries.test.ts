import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

/**
 * The built packages (what npm users get: `dist/`, bundled by scripts/bundle-package.mjs) load
 * through their `exports` map in a plain Node process, without the `development` condition.
 */
const run = promisify(execFile);

async function exportsOf(specifier: string): Promise<string[]> {
	const script = `const m = await import(${JSON.stringify(specifier)}); console.log(JSON.stringify(Object.keys(m).sort()));`;
	const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: import.meta.dirname });
	return JSON.parse(stdout) as string[];
}

describe("published entry points", () => {
	it("@pi/ai exposes the entry points, registry, faux provider and catalog", async () => {
		const names = await exportsOf("@pi/ai");
		for (const name of ["stream", "complete", "streamSimple", "completeSimple", "registerApiProvider", "registerFauxProvider", "getModel", "validateToolArguments", "transformMessages"]) {
			expect(names).toContain(name);
		}
	});

	it("each provider subpath, the testing entry and the schema entry load", async () => {
		expect(await exportsOf("@pi/ai/openai-completions")).toContain("streamOpenAICompletions");
		expect(await exportsOf("@pi/ai/openai-responses")).toContain("streamOpenAIResponses");
		expect(await exportsOf("@pi/ai/anthropic-messages")).toContain("streamAnthropic");
		expect(await exportsOf("@pi/ai/google-generative-ai")).toContain("streamGoogle");
		expect(await exportsOf("@pi/ai/testing")).toContain("startReplayServer");
		expect(await exportsOf("@pi/ai/schema")).toContain("Type");
	});

	it("@pi/agent-core exposes the loop and the Agent", async () => {
		const names = await exportsOf("@pi/agent-core");
		for (const name of ["Agent", "agentLoop", "agentLoopContinue"]) expect(names).toContain(name);
	});

	it("@pi/cli exposes main() and its package.json names the pi-ai binary", async () => {
		expect(await exportsOf("@pi/cli")).toContain("main");
		const script = `const { createRequire } = await import("node:module"); const require = createRequire(process.cwd() + "/"); console.log(JSON.stringify(require("@pi/cli/package.json").bin));`;
		const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: import.meta.dirname });
		expect(JSON.parse(stdout)).toEqual({ "pi-ai": "./dist/bin.js" });
	});

	it("@pi/otel exposes traceAgent and traceStreamFn, and loads with @opentelemetry/api alone", async () => {
		expect(await exportsOf("@pi/otel")).toEqual(["GEN_AI", "GEN_AI_METRICS", "PI", "traceAgent", "traceStreamFn"]);
	});

	it("a built provider streams through the registry from dist (lazy chunk loading works)", async () => {
		const script = `
			const { complete, registerFauxProvider, fauxAssistantMessage } = await import("@pi/ai");
			const faux = registerFauxProvider();
			faux.setResponses([fauxAssistantMessage("ok")]);
			const a = await complete(faux.getModel(), { messages: [] });
			const b = await complete({ ...faux.getModel(), api: "anthropic-messages", provider: "anthropic", baseUrl: "http://127.0.0.1:9" }, { messages: [] }, { apiKey: "k", maxRetries: 0 });
			console.log(JSON.stringify([a.stopReason, b.stopReason, b.errorMessage]));`;
		const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: import.meta.dirname });
		const [faux, anthropic, message] = JSON.parse(stdout) as string[];
		expect(faux).toBe("stop");
		expect(anthropic).toBe("error");
		expect(message).toMatch(/^Network error/);
	});

	it("ships no source map that points at unshipped files: no .d.ts.map, and every .js.map carries its sources", () => {
		for (const name of ["ai", "agent"]) {
			const dist = fileURLToPath(new URL(`../../packages/${name}/dist/`, import.meta.url));
			const files = readdirSync(dist, { recursive: true }).map(String);
			expect(files.filter((file) => file.endsWith(".d.ts.map")), name).toEqual([]);
			const declarations = files.filter((file) => file.endsWith(".d.ts"));
			expect(declarations.length, name).toBeGreaterThan(0);
			for (const file of declarations) expect(readFileSync(join(dist, file), "utf8"), file).not.toContain("sourceMappingURL");
			for (const file of files.filter((file) => file.endsWith(".js.map"))) {
				const map = JSON.parse(readFileSync(join(dist, file), "utf8")) as { sources: string[]; sourcesContent?: (string | null)[] };
				expect(map.sourcesContent?.length, file).toBe(map.sources.length);
				expect(map.sourcesContent?.every((content) => typeof content === "string"), file).toBe(true);
			}
		}
	});
});
