/**
 * Failures are clear and never hang: a command that does not exist, a server that exits or is
 * killed during a call (the tool result names the exit code or signal and the last lines of its
 * standard error, and the run goes on), a request over `timeoutMs`, an HTTP 401, bad options.
 */
import { execFileSync } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { connectMcp } from "../src/index.js";
import { runScripted, toolEnds } from "./helpers/scripted-agent.js";
import { everythingStdio, fixtureStdio, startAnsweringServer } from "./helpers/servers.js";
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";

const work = mkdtempSync(join(tmpdir(), "pi-mcp-failures-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("starting", () => {
	it("a command that does not exist rejects, naming the command", async () => {
		await expect(connectMcp({ command: "pi-no-such-mcp-server", name: "ghost" })).rejects.toThrow(
			'could not start MCP server "ghost": command "pi-no-such-mcp-server" not found (spawn pi-no-such-mcp-server ENOENT); check the command and PATH.',
		);
	});

	it("a program that exits instead of answering initialize rejects with its exit code and stderr", async () => {
		const script = "process.stderr.write('usage: server --root DIR\\n'); process.exit(2)";
		await expect(connectMcp({ command: process.execPath, args: ["-e", script], name: "bad-args" })).rejects.toThrow(
			'MCP server "bad-args" exited with code 2 during initialize. Its last standard error lines:\n  usage: server --root DIR',
		);
	});

	it("a program that never answers initialize rejects after timeoutMs", async () => {
		const started = connectMcp({ command: process.execPath, args: ["-e", "setInterval(() => {}, 1000)"], name: "mute", timeoutMs: 300 });
		await expect(started).rejects.toThrow('MCP server "mute" did not answer initialize within 300 ms (timeoutMs).');
	});

	it("bad options are refused before anything starts", async () => {
		await expect(connectMcp({} as never)).rejects.toThrow("pass exactly one of `command` (a server started over stdio) and `url` (a server over HTTP)");
		await expect(connectMcp({ command: "x", url: "http://127.0.0.1:1/mcp" } as never)).rejects.toThrow("pass exactly one of");
		await expect(connectMcp({ command: "x", timeoutMs: -1 })).rejects.toThrow("timeoutMs must be a positive number of milliseconds, got -1.");
		await expect(connectMcp({ url: "not a url" })).rejects.toThrow("url is not a valid URL.");
		await expect(connectMcp({ url: "file:///etc/passwd" })).rejects.toThrow("url must be http: or https:, got file:");
		await expect(connectMcp({ command: "x", args: [1] as never })).rejects.toThrow("args must be an array of strings.");
	});

	it("aborting while the server starts rejects with the signal's reason, and ends the child", async () => {
		const controller = new AbortController();
		const started = connectMcp({ command: process.execPath, args: ["-e", "setInterval(() => {}, 1000)"], signal: controller.signal });
		setTimeout(() => controller.abort(new Error("the user pressed Ctrl-C")), 100);
		await expect(started).rejects.toThrow("the user pressed Ctrl-C");
	});

	it("an already aborted signal rejects at once", async () => {
		await expect(connectMcp({ ...everythingStdio(), signal: AbortSignal.abort(new Error("user left")) })).rejects.toThrow("user left");
	});
});

describe("a server that ends during a call", () => {
	it("exits: the tool result is an error naming the exit code and its last stderr lines, and the run goes on", async () => {
		const server = await connectMcp({ ...fixtureStdio(join(work, "log")), name: "fixture" });
		const tools = await server.tools({ include: ["crash"] });
		const { events, run } = runScripted(tools, [
			{ name: "crash", arguments: {} },
			{ name: "crash", arguments: {} },
		]);
		await run;
		const ends = toolEnds(events);
		expect(ends[0]).toMatchObject({ name: "crash", isError: true });
		expect(ends[0]?.text).toBe(
			'MCP server "fixture" exited with code 3 during tools/call "crash". Its last standard error lines:\n' +
				"  fixture: starting the crash tool\n  fixture: about to fail\n  Error: the disk is on fire",
		);
		// A later call to the dead server fails the same clear way, at once.
		expect(ends[1]?.text).toMatch(/^MCP server "fixture" exited with code 3 during tools\/call "crash"\./);
		expect(events.at(-1)?.type).toBe("agent_end");
		await server.close();
		await server.close(); // idempotent, also after the server died
	});

	it("is killed by a signal mid-call: the result names the signal", async () => {
		const server = await connectMcp({ ...everythingStdio(), name: "everything" });
		const pid = server.pid;
		expect(pid).toBeGreaterThan(0);
		const tools = await server.tools({ include: ["trigger-long-running-operation"] });
		const { events, run } = runScripted(tools, [{ name: "trigger-long-running-operation", arguments: { duration: 30, steps: 300 } }], (event) => {
			if (event.type === "tool_execution_update" && (event.partialResult.details as { progress: number }).progress === 1) process.kill(pid!, "SIGKILL");
		});
		await run;
		const [end] = toolEnds(events);
		expect(end).toMatchObject({ isError: true });
		expect(end?.text).toMatch(/^MCP server "everything" was killed by SIGKILL during tools\/call "trigger-long-running-operation"\./);
		expect(server.pid).toBeUndefined();
		// The process is gone for good: nothing left behind.
		expect(() => process.kill(pid!, 0)).toThrow();
		await server.close();
	});
});

describe("a request over timeoutMs", () => {
	it("a tool call that gets no answer nor progress within timeoutMs is an error result naming the limit, and the run goes on", async () => {
		const server = await connectMcp({ command: process.execPath, args: [join(import.meta.dirname, "servers", "silent-tool-server.mjs")], name: "silent", timeoutMs: 3_000 });
		try {
			const tools = await server.tools();
			const { events, run } = runScripted(tools, [{ name: "never", arguments: {} }]);
			await run;
			expect(toolEnds(events).map((end) => [end.isError, end.text])).toEqual([[true, 'MCP server "silent" did not answer tools/call "never" within 3000 ms (timeoutMs).']]);
			expect(events.at(-1)?.type).toBe("agent_end");
		} finally {
			await server.close();
		}
	});
});

describe("HTTP failures", () => {
	it("a 401 rejects, naming the status and the URL, without the credentials", async () => {
		const secret = "sk-test-very-secret-token-123";
		const http = await startAnsweringServer(401, "Unauthorized");
		try {
			const failure = await connectMcp({ url: `${http.url}?key=${secret}`, headers: { Authorization: `Bearer ${secret}` }, name: "remote" }).catch((error: Error) => error);
			expect(failure).toBeInstanceOf(Error);
			expect((failure as Error).message).toBe(
				`MCP server "remote" at ${http.url} answered HTTP 401 to initialize: check the credentials in \`headers\` (Streamable HTTP error: Error POSTing to endpoint: Unauthorized).`,
			);
			expect((failure as Error).message).not.toContain(secret);
			// The header did go to the server.
			expect(http.authorizations[0]).toBe(`Bearer ${secret}`);
		} finally {
			await http.stop();
		}
	});

	it("a server that is not there rejects, naming the URL", async () => {
		const http = await startAnsweringServer(200, "");
		await http.stop(); // the port is free again, and nothing listens on it
		await expect(connectMcp({ url: http.url, name: "gone" })).rejects.toThrow(`MCP server "gone" at ${http.url}`);
	});
});

// No process started by these tests outlives them.
afterAll(() => {
	const children = execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(process.pid)], { encoding: "utf8" }).trim();
	expect(children).not.toMatch(/server-everything|fixture-server|silent-tool-server|setInterval/);
});
