import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { tempSessionPath } from "./file-helpers.js";

/**
 * What the file system is actually asked to do, seen by strace in a child process: each append
 * is one write of complete lines, and fsync durability syncs after each write, before the next.
 */
const childScript = fileURLToPath(new URL("./fixtures/session-child.ts", import.meta.url));

function traceAppends(durability: "flush" | "fsync", count: number): { writes: string[]; calls: string[] } {
	const strace = spawnSync("strace", ["-V"], { encoding: "utf8" });
	if (strace.error) throw new Error("strace is needed for this test: apt-get install -y strace (.ci/run installs it)");
	const path = tempSessionPath();
	const trace = `${path}.strace`;
	const run = spawnSync(
		"strace",
		["-f", "-qq", "-s", "4096", "-xx", "-e", "trace=write,pwrite64,writev,fdatasync,fsync", "-o", trace, process.execPath, "--import", "tsx", "--conditions=development", childScript, "append-some", path, durability, String(count)],
		{ encoding: "utf8", timeout: 120_000 },
	);
	expect(run.status, run.stderr).toBe(0);
	// Keep the calls on session lines (their data starts with `{"type":`) and the syncs.
	const calls: string[] = [];
	const writes: string[] = [];
	for (const line of readFileSync(trace, "utf8").split("\n")) {
		const sync = /\b(fdatasync|fsync)\(/.exec(line);
		if (sync) {
			calls.push(sync[1] as string);
			continue;
		}
		const write = /\b(write|pwrite64|writev)\(\d+, "((?:\\x[0-9a-f]{2})*)"/.exec(line);
		if (!write) continue;
		const data = Buffer.from((write[2] as string).replace(/\\x/g, ""), "hex").toString("utf8");
		if (!data.startsWith('{"type":') || data.startsWith('{"type":"session"')) continue;
		calls.push("write");
		writes.push(data);
	}
	return { writes, calls };
}

describe("appends at the system-call level (strace)", { timeout: 120_000 }, () => {
	it("flush: each append is one write of complete lines, a batch of three entries included", () => {
		const { writes } = traceAppends("flush", 5);
		expect(writes.length).toBe(6);
		for (const data of writes) expect(data.endsWith("\n")).toBe(true);
		expect(writes.map((data) => data.split("\n").length - 1)).toEqual([1, 1, 1, 1, 1, 3]);
		for (const data of writes) for (const line of data.slice(0, -1).split("\n")) expect(() => JSON.parse(line)).not.toThrow();
	});

	it("fsync: every write is followed by a sync before the next write", () => {
		const { calls } = traceAppends("fsync", 5);
		const fromFirstWrite = calls.slice(calls.indexOf("write"));
		expect(fromFirstWrite.filter((call) => call === "write").length).toBe(6);
		for (let index = 0; index < fromFirstWrite.length; index++) {
			if (fromFirstWrite[index] === "write") expect(fromFirstWrite[index + 1], `after write ${index}`).toMatch(/^f(data)?sync$/);
		}
	});
});
