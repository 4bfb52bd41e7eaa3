/**
 * A server started through a launcher (as `npx` starts one): when the launcher exits while its
 * own child still holds the pipes, the connection still ends, with the launcher's exit code,
 * instead of waiting for pipes that never close.
 */
import { describe, expect, it } from "vitest";
import { connectMcp } from "../src/index.js";

// Answers initialize and tools/list; on tools/call it starts a grandchild that inherits stdio and
// sleeps past the test timeout, then exits with code 5.
const launcher = `
const { spawn } = require("node:child_process");
const { createInterface } = require("node:readline");
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...m }) + "\\n");
createInterface({ input: process.stdin }).on("line", (line) => {
	const r = JSON.parse(line);
	if (r.method === "initialize") send({ id: r.id, result: { protocolVersion: r.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "launcher", version: "1" } } });
	if (r.method === "tools/list") send({ id: r.id, result: { tools: [{ name: "leave", inputSchema: { type: "object" } }] } });
	if (r.method === "tools/call") {
		const grandchild = spawn(process.execPath, ["-e", "setTimeout(() => {}, 120000)"], { stdio: "inherit" });
		process.stderr.write("launcher: leaving " + grandchild.pid + "\\n", () => process.exit(5));
	}
});`;

describe("a launcher whose child keeps the pipes", () => {
	it("the call fails with the launcher's exit code, and close() ends", async () => {
		const server = await connectMcp({ command: process.execPath, args: ["-e", launcher], name: "launcher" });
		const [leave] = await server.tools();
		const failure = await leave!.execute("c1", {}).catch((error: Error) => error);
		expect((failure as Error).message).toMatch(/^MCP server "launcher" exited with code 5 during tools\/call "leave"\. Its last standard error lines:\n {2}launcher: leaving (\d+)$/);
		await server.close();
		const grandchild = Number(/leaving (\d+)/.exec((failure as Error).message)?.[1]);
		process.kill(grandchild, "SIGKILL");
	});
});
