/**
 * A connection's life: `close()` ends the child process and is idempotent, aborting `signal`
 * after connecting closes the connection, and a server that writes logs to stdout or floods
 * stderr still works and is quoted briefly.
 */
import { describe, expect, it } from "vitest";
import { connectMcp } from "../src/index.js";

function gone(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return false;
	} catch {
		return true;
	}
}

// A server that writes a non-JSON line to stdout and 50 lines to stderr before it exits mid-call.
const noisy = `
const { createInterface } = require("node:readline");
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...m }) + "\\n");
process.stdout.write("not json: starting up\\n");
createInterface({ input: process.stdin }).on("line", (line) => {
	const r = JSON.parse(line);
	if (r.method === "initialize") send({ id: r.id, result: { protocolVersion: r.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "noisy", version: "1" } } });
	if (r.method === "tools/list") send({ id: r.id, result: { tools: [{ name: "boom", inputSchema: { type: "object" } }] } });
	if (r.method === "tools/call") { for (let i = 1; i <= 50; i++) process.stderr.write("line " + i + "\\n"); process.stderr.write("partial tail", () => process.exit(7)); }
});`;

describe("connection lifecycle", () => {
	it("a server without resources or prompts capabilities lists none, without asking", async () => {
		const server = await connectMcp({ command: process.execPath, args: ["-e", noisy] });
		try {
			expect(server.capabilities).toEqual({ tools: {} });
			expect(server.name).toBe("noisy");
			expect(await server.resources()).toEqual([]);
			expect(await server.prompts()).toEqual([]);
		} finally {
			await server.close();
		}
	});

	it("close() ends the child process; a second close() resolves at once", async () => {
		const server = await connectMcp({ command: process.execPath, args: ["-e", noisy] });
		const pid = server.pid!;
		expect(gone(pid)).toBe(false);
		await server.close();
		expect(gone(pid)).toBe(true);
		expect(server.pid).toBeUndefined();
		await server.close();
	});

	it("aborting `signal` after connecting closes the connection", async () => {
		const controller = new AbortController();
		const server = await connectMcp({ command: process.execPath, args: ["-e", noisy], signal: controller.signal });
		const pid = server.pid!;
		controller.abort();
		await server.close(); // the close the abort started
		expect(gone(pid)).toBe(true);
		await expect(server.tools()).rejects.toThrow("the connection is closed; tools/list was not sent.");
	});

	it("a log line on stdout is skipped; an exit quotes only the last ten stderr lines, the unfinished one included", async () => {
		const server = await connectMcp({ command: process.execPath, args: ["-e", noisy], name: "noisy" });
		const [boom] = await server.tools();
		const failure = await boom!.execute("c1", {}).catch((error: Error) => error);
		expect((failure as Error).message).toBe(
			`MCP server "noisy" exited with code 7 during tools/call "boom". Its last standard error lines:\n${[42, 43, 44, 45, 46, 47, 48, 49, 50].map((n) => `  line ${n}`).join("\n")}\n  partial tail`,
		);
		await server.close();
	});
});
