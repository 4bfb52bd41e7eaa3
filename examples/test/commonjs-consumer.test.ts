/**
 * A CommonJS application uses the built packages: a project with `"type": "commonjs"` (what
 * `npm init -y` gives), compiled by `tsc --module nodenext`, which turns `import … from "@pi/ai"`
 * into `require("@pi/ai")`. The packages are ES modules; Node 20.19+ and 22.12+ can `require()`
 * them, which the `default` export condition allows (with only `import`, require() failed with
 * ERR_PACKAGE_PATH_NOT_EXPORTED). `skipLibCheck` as `tsc --init` sets it: without it, checking typebox's
 * own declarations alone takes tens of seconds.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageFolder } from "./helpers/package-folder.js";

const run = promisify(execFile);
const examples = fileURLToPath(new URL("..", import.meta.url));
const project = mkdtempSync(join(tmpdir(), "pi-commonjs-consumer-"));
afterAll(() => rmSync(project, { recursive: true, force: true }));

const APP = `import { complete, fauxAssistantMessage, getModel, registerFauxProvider } from "@pi/ai";
import { Agent, defineTool } from "@pi/agent-core";
import { Type } from "@pi/ai/schema";

async function main(): Promise<void> {
	const faux = registerFauxProvider();
	faux.setResponses([fauxAssistantMessage("hello from CommonJS"), fauxAssistantMessage("agent reply")]);
	const reply = await complete(faux.getModel(), { messages: [{ role: "user", content: "hi", timestamp: Date.now() }] });
	const agent = new Agent({
		initialState: {
			model: faux.getModel(),
			tools: [
				defineTool({
					name: "echo",
					label: "Echo",
					description: "Echoes.",
					parameters: Type.Object({ text: Type.String() }),
					execute: async (_id, { text }) => ({ content: [{ type: "text", text }], details: {} }),
				}),
			],
		},
	});
	await agent.prompt("hi");
	const last = agent.state.messages.at(-1);
	console.log(JSON.stringify({
		moduleSystem: typeof module === "object" && typeof require === "function" ? "commonjs" : "esm",
		reply: reply.stopReason + ":" + (reply.content[0]?.type === "text" ? reply.content[0].text : ""),
		agent: last?.role === "assistant" ? last.stopReason : "none",
		catalog: getModel("openai", "gpt-4o-mini").api,
	}));
}
void main();
`;

beforeAll(() => {
	mkdirSync(join(project, "node_modules", "@pi"), { recursive: true });
	for (const name of ["ai", "agent-core"]) symlinkSync(realpathSync(join(examples, "node_modules", "@pi", name)), join(project, "node_modules", "@pi", name), "dir");
	mkdirSync(join(project, "node_modules", "@types"), { recursive: true });
	symlinkSync(packageFolder("@types/node"), join(project, "node_modules", "@types", "node"), "dir");
	writeFileSync(join(project, "package.json"), JSON.stringify({ name: "commonjs-app", version: "1.0.0", type: "commonjs" }));
	writeFileSync(
		join(project, "tsconfig.json"),
		JSON.stringify({ compilerOptions: { module: "nodenext", moduleResolution: "nodenext", target: "es2022", strict: true, skipLibCheck: true, outDir: "dist", types: ["node"] }, include: ["src"] }),
	);
	mkdirSync(join(project, "src"));
	writeFileSync(join(project, "src", "index.ts"), APP);
});

describe("a CommonJS project", () => {
	it("type-checks and compiles with tsc --module nodenext into require() calls", async () => {
		const tsc = join(packageFolder("typescript"), "bin", "tsc");
		await run(process.execPath, [tsc, "-p", project], { cwd: project }).catch((error: { stdout?: string }) => {
			throw new Error(`tsc failed:\n${error.stdout}`);
		});
		const compiled = readFileSync(join(project, "dist", "index.js"), "utf8");
		expect(compiled).toContain('require("@pi/ai")');
		expect(compiled).toContain('require("@pi/agent-core")');
		expect(compiled).not.toMatch(/^import /m);
	}, 120_000);

	it("runs: require() loads both packages and they work", async () => {
		const { stdout, stderr } = await run(process.execPath, [join(project, "dist", "index.js")], { cwd: project });
		expect(stderr).toBe("");
		expect(JSON.parse(stdout)).toEqual({ moduleSystem: "commonjs", reply: "stop:hello from CommonJS", agent: "stop", catalog: "openai-responses" });
	});

	it("require() of every published subpath works", async () => {
		const script = ["@pi/ai", "@pi/ai/schema", "@pi/ai/testing", "@pi/ai/openai-responses", "@pi/ai/openai-completions", "@pi/ai/anthropic-messages", "@pi/ai/google-generative-ai", "@pi/agent-core", "@pi/agent-core/testing"]
			.map((specifier) => `Object.keys(require(${JSON.stringify(specifier)})).length`)
			.join(", ");
		const { stdout } = await run(process.execPath, ["-e", `console.log(JSON.stringify([${script}]))`], { cwd: project });
		const counts = JSON.parse(stdout) as number[];
		expect(counts).toHaveLength(9);
		for (const count of counts) expect(count).toBeGreaterThan(0);
	});
});
