import { appendFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { listSessionFiles, openSessionFile, readSessionFileInfo } from "@pi/agent-core/node";
import { describe, expect, it } from "vitest";
import { tempSessionPath } from "./file-helpers.js";
import { assistant } from "./helpers.js";

describe("summaries of session files, for listings", () => {
	it("gives id, dates, counts, model, first line and the cost of every reply, all branches included", async () => {
		const path = tempSessionPath();
		const session = await openSessionFile(path);
		const first = await session.appendMessage({ role: "user", content: "  Plan the trip\nto Lisbon, please", timestamp: 1 });
		const paid = { ...assistant("sure"), usage: { ...assistant("").usage, cost: { input: 0.01, output: 0.02, cacheRead: 0, cacheWrite: 0, total: 0.03 } } };
		await session.appendMessage(paid);
		await session.branch(first.id);
		await session.appendMessage({ ...paid, model: "claude-haiku-4-5", provider: "anthropic" });
		await session.append([{ type: "model_change", provider: "google", modelId: "gemini-3.8-flash" }]);
		await session.close();

		const info = await readSessionFileInfo(path);
		// Five entries: the branch() wrote a leaf entry.
		expect(info).toMatchObject({ id: session.id, entryCount: 5, messageCount: 3, firstLine: "Plan the trip", model: { provider: "google", modelId: "gemini-3.8-flash" } });
		expect(info.cost).toBeCloseTo(0.06, 10);
		expect(info.updatedAt).toBeGreaterThanOrEqual(info.createdAt);
	});

	it("ignores a torn last line without changing the file, and lists a folder newest first, with broken files named", async () => {
		const path = tempSessionPath("b.jsonl");
		const folder = dirname(path);
		const older = await openSessionFile(join(folder, "a.jsonl"));
		await older.appendMessage({ role: "user", content: "older", timestamp: 1 });
		await older.close();
		await new Promise((resolve) => setTimeout(resolve, 5));
		const newer = await openSessionFile(path);
		await newer.appendMessage({ role: "user", content: "newer", timestamp: 2 });
		await newer.close();
		appendFileSync(path, '{"type":"message","id":"torn"');
		writeFileSync(join(folder, "broken.jsonl"), "not json\n{}\n");
		writeFileSync(join(folder, "notes.txt"), "not a session");

		const listing = await listSessionFiles(folder);
		expect(listing.map((item) => item.info?.firstLine ?? "error")).toEqual(["newer", "older", "error"]);
		expect(listing[2]?.error?.message).toMatch(/broken\.jsonl.*line 1/);
		expect(await listSessionFiles(join(folder, "missing"))).toEqual([]);
	});
});
