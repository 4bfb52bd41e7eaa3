import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { SessionLockedError } from "@pi/agent-core";
import { openSessionFile } from "@pi/agent-core/node";
import { describe, expect, it } from "vitest";
import { exited, startChild, tempSessionPath } from "./file-helpers.js";
import { user } from "./helpers.js";

describe("one writer per session file", { timeout: 60_000 }, () => {
	it("a second process is refused while the first lives, naming it; once it is SIGKILLed its lock is taken over", async () => {
		const path = tempSessionPath();
		const holder = startChild(["hold", path]);
		await holder.waitFor(/^locked$/);
		const pid = holder.child.pid as number;

		const error = await openSessionFile(path).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(SessionLockedError);
		const locked = error as SessionLockedError;
		expect(locked.holder.pid).toBe(pid);
		expect(locked.message).toContain(`pid ${pid}`);
		expect(locked.message).toContain(path);

		holder.child.kill("SIGKILL");
		await exited(holder.child);
		// The dead process's lock file is still there, and is taken over.
		expect(JSON.parse(readFileSync(`${path}.lock`, "utf8")).pid).toBe(pid);
		const session = await openSessionFile(path);
		expect(JSON.parse(readFileSync(`${path}.lock`, "utf8")).pid).toBe(process.pid);
		await session.appendMessage(user("mine now"));
		await session.close();
		expect(existsSync(`${path}.lock`)).toBe(false);
	});

	it("takes over a lock file naming a process that no longer exists", async () => {
		const path = tempSessionPath();
		const gone = spawnSync(process.execPath, ["-e", "0"]).pid as number;
		writeFileSync(`${path}.lock`, JSON.stringify({ pid: gone, hostname: hostname(), since: "2026-01-01T00:00:00.000Z", token: "old" }));
		const session = await openSessionFile(path);
		expect(JSON.parse(readFileSync(`${path}.lock`, "utf8")).pid).toBe(process.pid);
		await session.close();
	});

	it("treats a lock held on another host as live, and a second open in the same process as locked", async () => {
		const path = tempSessionPath();
		writeFileSync(`${path}.lock`, JSON.stringify({ pid: 1, hostname: "elsewhere.example", since: "2026-01-01T00:00:00.000Z", token: "far" }));
		await expect(openSessionFile(path)).rejects.toThrow(/on elsewhere\.example/);

		const other = tempSessionPath();
		const first = await openSessionFile(other);
		await expect(openSessionFile(other)).rejects.toThrow(/this process/);
		await first.close();
		const again = await openSessionFile(other);
		await again.close();
	});

	it("a process that exits without closing leaves no lock behind", async () => {
		const path = tempSessionPath();
		const child = spawnSync(
			process.execPath,
			["--import", "tsx", "--conditions=development", "--input-type=module", "-e", `import { openSessionFile } from "@pi/agent-core/node"; await openSessionFile(${JSON.stringify(path)});`],
			{ cwd: new URL("../..", import.meta.url), encoding: "utf8" },
		);
		expect(child.status, child.stderr).toBe(0);
		expect(existsSync(`${path}.lock`)).toBe(false);
	});
});

describe("taking over a dead process's lock", { timeout: 60_000 }, () => {
	it("when several openers race for the same stale lock, exactly one wins and the others are refused", async () => {
		const path = tempSessionPath();
		const gone = spawnSync(process.execPath, ["-e", "0"]).pid as number;
		writeFileSync(`${path}.lock`, JSON.stringify({ pid: gone, hostname: hostname(), since: "2026-01-01T00:00:00.000Z", token: "stale" }));
		// Separate storages in one process would be refused by the in-process table at once; the
		// race that matters is between processes, so each opener is a child process.
		// Each child loads, says "ready", opens on "go" (all at once), reports, and exits on "exit".
		const script = `import { openSessionFile } from "@pi/agent-core/node";
import { createInterface } from "node:readline";
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
process.stdout.write("ready\\n");
await lines.next();
let session;
try { session = await openSessionFile(${JSON.stringify(path)}); process.stdout.write("won\\n"); }
catch (e) { process.stdout.write(e.name + "\\n"); }
await lines.next();
await session?.close();
process.exit(0);`;
		const { spawn } = await import("node:child_process");
		const children = Array.from({ length: 4 }, () => {
			const child = spawn(process.execPath, ["--import", "tsx", "--conditions=development", "--input-type=module", "-e", script], { cwd: new URL("../..", import.meta.url) });
			const lines: string[] = [];
			const waiters: (() => void)[] = [];
			child.stdout.on("data", (chunk: Buffer) => {
				lines.push(...chunk.toString().split("\n").filter(Boolean));
				for (const wake of waiters.splice(0)) wake();
			});
			const nextLine = async (count: number) => {
				while (lines.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
				return lines[count - 1] as string;
			};
			return { child, nextLine };
		});
		await Promise.all(children.map((c) => c.nextLine(1)));
		for (const { child } of children) child.stdin.write("go\n");
		const outcomes = await Promise.all(children.map((c) => c.nextLine(2)));
		for (const { child } of children) child.stdin.write("exit\n");
		await Promise.all(children.map(({ child }) => exited(child)));
		expect(outcomes.filter((o) => o === "won").length).toBe(1);
		expect(outcomes.filter((o) => o === "SessionLockedError").length).toBe(3);
	});
});
