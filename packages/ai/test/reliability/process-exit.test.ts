/**
 * No lingering sockets, timers or listeners: a child process runs a fault of every kind against
 * every provider (the replay server stays here, in the parent, stalled connections included) and
 * must exit by itself right after its last case.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type ReplayServer, startReplayServer } from "../../src/testing/index.js";
import { CHILD_CASES } from "./child/child-cases.js";
import { ADAPTERS } from "./harness/adapters.js";

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());

it("a process that ran every fault against every provider exits by itself at once", async () => {
	for (const adapter of ADAPTERS) for (const testCase of CHILD_CASES) server.enqueue(...testCase.responses(adapter));
	const script = fileURLToPath(new URL("./child/fault-run.ts", import.meta.url));
	const child = spawn(process.execPath, ["--import", "tsx", script, server.url], { stdio: ["ignore", "pipe", "pipe"] });
	let stdout = "";
	let stderr = "";
	let doneAt = 0;
	child.stdout.on("data", (data: Buffer) => {
		stdout += data.toString();
		const done = /^done (\d+)$/m.exec(stdout);
		if (done && !doneAt) doneAt = Date.now();
	});
	child.stderr.on("data", (data: Buffer) => {
		stderr += data.toString();
	});
	const exit = await new Promise<{ code: number | null; signal: string | null; at: number }>((resolve) => {
		const killer = setTimeout(() => child.kill("SIGKILL"), 20_000);
		child.on("exit", (code, signal) => {
			clearTimeout(killer);
			resolve({ code, signal, at: Date.now() });
		});
	});
	expect(stderr).toBe("");
	expect(exit).toMatchObject({ code: 0, signal: null });
	const records = stdout
		.trim()
		.split("\n")
		.filter((line) => line.startsWith("{"))
		.map((line) => JSON.parse(line) as { api: string; name: string; stopReason: string; resources?: string[] });
	const lines = records.filter((record) => record.resources === undefined);
	// Once the cases are over, only the child's stdio pipes are left: no socket, no timer.
	expect(records.find((record) => record.resources)?.resources?.filter((kind) => kind !== "PipeWrap" && kind !== "TTYWrap")).toEqual([]);
	const expected = ADAPTERS.flatMap((adapter) => CHILD_CASES.map((testCase) => ({ api: adapter.api, name: testCase.name, stopReason: testCase.expected })));
	expect(lines.map(({ api, name, stopReason }) => ({ api, name, stopReason }))).toEqual(expected);
	expect(server.pendingResponses).toBe(0);
	// The process exited by itself (code 0, not the 20 s SIGKILL) after the last case.
	expect(doneAt).toBeGreaterThan(0);
}, 30_000);
