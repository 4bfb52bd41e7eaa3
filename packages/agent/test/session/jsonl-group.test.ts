import { readFileSync, statSync, writeFileSync } from "node:fs";
import { openSessionFile } from "@pi/agent-core/node";
import { describe, expect, it } from "vitest";
import { tempSessionPath } from "./file-helpers.js";
import { assistant, user } from "./helpers.js";

/**
 * Issue 24 §4: an append of several entries is all or nothing, also when a power loss keeps only
 * a prefix of its one write. Each line of a group but its last says how many of the group's
 * entries follow it; opening drops a group whose last complete line says more follow.
 */

/** A file: one entry, then a group of three, then a group of two. Returns the bytes and where each part ends. */
async function writeGroups(path: string): Promise<{ bytes: Buffer; singleEnd: number; firstGroupEnd: number }> {
	const session = await openSessionFile(path);
	await session.appendMessage(user("alone"));
	await session.close();
	const singleEnd = statSync(path).size;
	const again = await openSessionFile(path);
	await again.append([
		{ type: "message", message: user("group one, ünïcödé 🚀") },
		{ type: "message", message: assistant("group one, reply") },
		{ type: "custom", customType: "note", data: { text: "group one, note" } },
	]);
	await again.close();
	const firstGroupEnd = statSync(path).size;
	const third = await openSessionFile(path);
	await third.append([
		{ type: "model_change", provider: "openai", modelId: "gpt-6-luna" },
		{ type: "message", message: user("group two") },
	]);
	await third.close();
	return { bytes: readFileSync(path), singleEnd, firstGroupEnd };
}

describe("a group append is all or nothing", { timeout: 120_000 }, () => {
	it("a cut at every byte of two groups keeps whole groups only, with and without the lock", async () => {
		const path = tempSessionPath();
		const { bytes, singleEnd, firstGroupEnd } = await writeGroups(path);
		for (let cut = singleEnd; cut <= bytes.length; cut++) {
			const keptEnd = cut === bytes.length ? bytes.length : cut >= firstGroupEnd ? firstGroupEnd : singleEnd;
			const keptEntries = keptEnd === bytes.length ? 6 : keptEnd === firstGroupEnd ? 4 : 1;
			const at = `cut at ${cut} of ${bytes.length}`;

			writeFileSync(path, bytes.subarray(0, cut));
			const reader = await openSessionFile(path, { lock: false });
			expect(reader.entryCount, at).toBe(keptEntries);
			expect(reader.repaired, at).toBe(cut !== keptEnd);
			await reader.close();
			expect(statSync(path).size, `${at}: a reader changes nothing`).toBe(cut);

			const writer = await openSessionFile(path);
			expect(writer.entryCount, at).toBe(keptEntries);
			expect(writer.repaired, at).toBe(cut !== keptEnd);
			expect(statSync(path).size, at).toBe(keptEnd);
			await writer.close();
		}
	});

	it("the repaired file takes a new group and reopens with it whole", async () => {
		const path = tempSessionPath();
		const { bytes, firstGroupEnd } = await writeGroups(path);
		writeFileSync(path, bytes.subarray(0, bytes.length - 7));
		const session = await openSessionFile(path);
		expect(session.entryCount).toBe(4);
		await session.append([
			{ type: "message", message: user("retry one") },
			{ type: "message", message: user("retry two") },
		]);
		await session.close();
		expect(statSync(path).size).toBeGreaterThan(firstGroupEnd);
		const reopened = await openSessionFile(path);
		expect(reopened.repaired).toBe(false);
		expect(reopened.entryCount).toBe(6);
		// The mark is the file's, not the entry's.
		for (const entry of await reopened.entries()) expect(entry).not.toHaveProperty("groupRemaining");
		await reopened.close();
	});

	it("an entry that carries the reserved field itself is refused before anything is written", async () => {
		const path = tempSessionPath();
		const session = await openSessionFile(path);
		const before = statSync(path).size;
		await expect(session.append([{ type: "custom", customType: "x", data: 1, groupRemaining: 5 } as never])).rejects.toThrow(/"groupRemaining" field, which the JSONL format reserves/);
		expect(statSync(path).size).toBe(before);
		await session.close();
	});
});
