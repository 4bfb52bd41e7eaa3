import { openSessionFile } from "@pi/agent-core/node";
import { describe, expect, it } from "vitest";
import { exited, startChild, tempSessionPath } from "./file-helpers.js";
import { texts } from "./helpers.js";

describe("appends survive a process crash", { timeout: 60_000 }, () => {
	for (const durability of ["flush", "fsync"] as const) {
		it(`${durability}: every append acknowledged before a SIGKILL is in the file after it`, async () => {
			const path = tempSessionPath();
			const writer = startChild(["append", path, durability]);
			await writer.waitFor(/^acked 40$/);
			writer.child.kill("SIGKILL");
			await exited(writer.child);
			const acked = writer.lines.filter((line) => line.startsWith("acked ")).length;

			const session = await openSessionFile(path);
			const messages = texts((await session.buildContext()).messages);
			expect(messages.length).toBeGreaterThanOrEqual(acked);
			// In order, none missing, none torn: a possibly unacknowledged last one is complete or gone.
			messages.forEach((text, index) => expect(text).toBe(`message ${index} ${"x".repeat(index % 300)}`));
			await session.close();
		});
	}
});

describe("a write that fails half-way", { timeout: 60_000 }, () => {
	it("leaves no partial line behind: the file is cut back, and the session goes on", async () => {
		const { spawnSync } = await import("node:child_process");
		const { statSync } = await import("node:fs");
		const { fileURLToPath } = await import("node:url");
		const path = tempSessionPath();
		const child = fileURLToPath(new URL("./fixtures/session-child.ts", import.meta.url));
		// A file-size limit of 64 KB makes a 10 KB append fail part-way through its write (EFBIG).
		const run = spawnSync("prlimit", ["--fsize=65536", process.execPath, "--import", "tsx", "--conditions=development", child, "fill", path], { encoding: "utf8", timeout: 60_000 });
		expect(run.stdout, run.stderr).toMatch(/rejected EFBIG/);
		expect(statSync(path).size).toBeLessThanOrEqual(65_536);
		const session = await openSessionFile(path);
		expect(session.repaired).toBe(false);
		const messages = texts((await session.buildContext()).messages);
		expect(messages.at(-1)).toBe("small");
		messages.slice(0, -1).forEach((text, index) => expect(text).toBe(`${index} ${"y".repeat(10_000)}`));
		await session.close();
	});
});
