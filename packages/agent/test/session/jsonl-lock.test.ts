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
