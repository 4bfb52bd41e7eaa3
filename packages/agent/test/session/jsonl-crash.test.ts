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
			const messages = texts(session.buildContext().messages);
			expect(messages.length).toBeGreaterThanOrEqual(acked);
			// In order, none missing, none torn: a possibly unacknowledged last one is complete or gone.
			messages.forEach((text, index) => expect(text).toBe(`message ${index} ${"x".repeat(index % 300)}`));
			await session.close();
		});
	}
});
