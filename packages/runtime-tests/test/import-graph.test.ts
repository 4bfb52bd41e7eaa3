/**
 * What a plain `import "@pi/ai"` loads on Node, from the built packages: every module the ES
 * module loader resolves is recorded by a resolve hook in a child process. The import must stay
 * cheap (docs/runtimes.md): no dependency is loaded until it is needed, and the package's own
 * static graph stays a handful of files (each file costs the loader about half a millisecond).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const work = mkdtempSync(join(tmpdir(), "pi-import-graph-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const HOOKS = `import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
	const result = await next(specifier, context);
	appendFileSync(process.env.PI_RESOLVED_LOG, result.url + "\\n");
	return result;
}`;
const REGISTER = `import { register } from "node:module";
register(${JSON.stringify(pathToFileURL(join(work, "hooks.mjs")).href)});`;
writeFileSync(join(work, "hooks.mjs"), HOOKS);
writeFileSync(join(work, "register.mjs"), REGISTER);

/** The URLs resolved while `script` runs in a fresh node, started in this package's folder. */
function resolvedBy(script: string, name: string): Promise<string[]> {
	const log = join(work, `${name}.log`);
	writeFileSync(log, "");
	return new Promise((resolve, reject) => {
		execFile(
			process.execPath,
			["--import", pathToFileURL(join(work, "register.mjs")).href, "--input-type=module", "-e", script],
			{ cwd: join(import.meta.dirname, ".."), env: { ...process.env, PI_RESOLVED_LOG: log } },
			(error, _stdout, stderr) => {
				if (error) reject(new Error(`${error.message}\n${stderr}`));
				else resolve(readFileSync(log, "utf8").split("\n").filter((url) => url.startsWith("file:")));
			},
		);
	});
}

/** `@pi/ai` or a third-party package name, from a resolved file URL. */
function packageOf(url: string): string {
	const path = decodeURIComponent(new URL(url).pathname);
	const inNodeModules = path.lastIndexOf("/node_modules/");
	if (inNodeModules >= 0) {
		const parts = path.slice(inNodeModules + "/node_modules/".length).split("/");
		return parts[0]!.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!;
	}
	const own = path.match(/\/packages\/([^/]+)\/dist\//);
	return own ? `workspace:${own[1]}` : path;
}

describe("importing the built packages on Node", () => {
	it("@pi/ai loads none of its dependencies and few files of its own", async () => {
		const urls = await resolvedBy('await import("@pi/ai");', "ai");
		const packages = new Set(urls.map(packageOf));
		// Realpath'd through the workspace link: the files are packages/ai/dist/*.
		expect([...packages]).toEqual(["workspace:ai"]);
		expect(urls.length).toBeLessThanOrEqual(8);
	});

	it("the first request loads eventsource-parser, so the hook does see lazily loaded dependencies", async () => {
		const script = `
			import { createServer } from "node:http";
			const server = createServer((_request, response) => {
				response.writeHead(200, { "content-type": "text/event-stream" });
				response.end('data: {"choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}]}\\n\\ndata: [DONE]\\n\\n');
			});
			await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
			const { complete } = await import("@pi/ai");
			const model = { id: "m", name: "m", api: "openai-completions", provider: "local", baseUrl: "http://127.0.0.1:" + server.address().port + "/v1",
				reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 1000, maxTokens: 100 };
			const reply = await complete(model, { messages: [{ role: "user", content: "hello", timestamp: 0 }] }, { apiKey: "test" });
			server.close();
			if (reply.content[0]?.text !== "hi") throw new Error("unexpected reply: " + JSON.stringify(reply));`;
		const urls = await resolvedBy(script, "request");
		expect(new Set(urls.map(packageOf))).toEqual(new Set(["workspace:ai", "eventsource-parser"]));
	});

	it("@pi/agent-core loads @pi/ai and nothing else", async () => {
		const urls = await resolvedBy('await import("@pi/agent-core");', "agent");
		expect(new Set(urls.map(packageOf))).toEqual(new Set(["workspace:agent", "workspace:ai"]));
	});

	it("@pi/mcp loads @pi/ai and nothing else; the MCP SDK only once connectMcp runs", async () => {
		const imported = await resolvedBy('await import("@pi/mcp");', "mcp");
		expect(new Set(imported.map(packageOf))).toEqual(new Set(["workspace:mcp", "workspace:ai"]));
		const script = `
			const { connectMcp } = await import("@pi/mcp");
			const failure = await connectMcp({ command: "pi-no-such-mcp-server" }).catch((error) => error);
			if (!/not found/.test(failure?.message)) throw new Error("unexpected: " + failure);`;
		const connected = await resolvedBy(script, "mcp-connect");
		expect(new Set(connected.map(packageOf))).toContain("@modelcontextprotocol/sdk");
	});
});
