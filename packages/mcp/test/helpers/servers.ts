import { type ChildProcess, spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { McpStdioServer } from "../../src/types.js";

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));

/** server-everything's command-line entry (`mcp-server-everything`), from this package's devDependency. */
export const EVERYTHING_BIN = join(dirname(require.resolve("@modelcontextprotocol/server-everything/package.json")), "dist", "index.js");

/** server-everything over stdio, as `connectMcp` options. */
export function everythingStdio(): McpStdioServer {
	return { command: process.execPath, args: [EVERYTHING_BIN, "stdio"] };
}

/** The fixture server (test/servers/fixture-server.mjs) over stdio; `log` receives what it records. */
export function fixtureStdio(log: string): McpStdioServer {
	return { command: process.execPath, args: [join(here, "..", "servers", "fixture-server.mjs")], env: { PI_FIXTURE_LOG: log } };
}

/** A server process listening on 127.0.0.1, and how to stop it. */
export interface RunningServer {
	url: string;
	stop(): Promise<void>;
}

/** A server-everything HTTP process, with what it has printed so far. */
export interface EverythingHttp extends RunningServer {
	output(): string;
}

/**
 * server-everything's own HTTP entry point (`streamableHttp` serves /mcp, `sse` serves /sse), kept
 * on 127.0.0.1 and a free port by test/servers/loopback-listen.mjs.
 */
export async function startEverythingHttp(transport: "streamableHttp" | "sse"): Promise<EverythingHttp> {
	const child = spawn(process.execPath, ["--import", join(here, "..", "servers", "loopback-listen.mjs"), EVERYTHING_BIN, transport], {
		stdio: ["ignore", "pipe", "pipe"],
	});
	let stderr = "";
	let stdout = "";
	child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
	const port = await new Promise<number>((resolve, reject) => {
		child.stdout?.on("data", (chunk: Buffer) => {
			stdout += chunk.toString();
			const match = /PI_TEST_LISTENING (\d+)/.exec(stdout);
			if (match) resolve(Number(match[1]));
		});
		child.once("exit", (code) => reject(new Error(`server-everything ${transport} exited with code ${code} before listening: ${stderr}`)));
	});
	const path = transport === "sse" ? "/sse" : "/mcp";
	return { url: `http://127.0.0.1:${port}${path}`, stop: () => stopChild(child), output: () => stdout + stderr };
}

/** An HTTP server on 127.0.0.1 that answers every request with `status` and `body`. */
export async function startAnsweringServer(status: number, body: string): Promise<RunningServer & { authorizations: string[] }> {
	const authorizations: string[] = [];
	const server: Server = createServer((request, response) => {
		authorizations.push(request.headers.authorization ?? "");
		response.writeHead(status, { "content-type": "text/plain" });
		response.end(body);
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/mcp`,
		authorizations,
		stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

/** Ends a child process: SIGTERM, then SIGKILL if it lingers. */
export async function stopChild(child: ChildProcess): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return;
	const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
	child.kill("SIGTERM");
	const timer = setTimeout(() => child.kill("SIGKILL"), 2_000);
	await exited;
	clearTimeout(timer);
}
