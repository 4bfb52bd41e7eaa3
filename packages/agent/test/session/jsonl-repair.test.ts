import { readFileSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { openSessionFile } from "@pi/agent-core/node";
import { SessionConflictError, SessionCorruptError } from "@pi/agent-core";
import { describe, expect, it } from "vitest";
import { tempSessionPath } from "./file-helpers.js";
import { assistant, texts, user } from "./helpers.js";

/** A session file with five entries; returns its bytes and the offset where each line ends. */
async function writeSample(path: string): Promise<{ bytes: Buffer; lineEnds: number[] }> {
	const session = await openSessionFile(path);
	await session.appendMessage(user("first"));
	await session.appendMessage(assistant("second, with ünïcödé and 🚀"));
	await session.appendMessage(user("third"));
	await session.append([{ type: "custom", customType: "note", data: { text: "fourth" } }]);
	await session.appendMessage(user("fifth"));
	await session.close();
	const bytes = readFileSync(path);
	const lineEnds: number[] = [];
	bytes.forEach((byte, index) => {
		if (byte === 0x0a) lineEnds.push(index + 1);
	});
	return { bytes, lineEnds };
}

describe("repairing a torn tail", { timeout: 60_000 }, () => {
	it("a cut at every byte offset inside the last three entries: opening keeps the complete entries, truncates the file and says so", async () => {
		const path = tempSessionPath();
		const { bytes, lineEnds } = await writeSample(path);
		expect(lineEnds.length).toBe(6); // header + 5 entries
		const firstCut = lineEnds[2] as number; // after entry 2: entries 3, 4 and 5 get cut
		for (let cut = firstCut; cut < bytes.length; cut++) {
			writeFileSync(path, bytes.subarray(0, cut));
			const complete = lineEnds.filter((end) => end <= cut);
			const keptEnd = complete[complete.length - 1] as number;
			const session = await openSessionFile(path);
			expect(session.repaired, `cut at ${cut}`).toBe(cut !== keptEnd);
			expect(session.entryCount, `cut at ${cut}`).toBe(complete.length - 1);
			expect(statSync(path).size, `cut at ${cut}`).toBe(keptEnd);
			// The repaired file takes appends and reopens cleanly (checked near each line end and
			// at every 5th byte, to keep the test short).
			const nearLineEnd = lineEnds.some((end) => Math.abs(end - cut) <= 1);
			if (!nearLineEnd && cut % 5 !== 0) {
				await session.close();
				continue;
			}
			await session.appendMessage(user("after repair"));
			await session.close();
			const reopened = await openSessionFile(path);
			expect(reopened.repaired).toBe(false);
			expect(reopened.entryCount).toBe(complete.length);
			expect(texts((await reopened.buildContext()).messages).at(-1)).toBe("after repair");
			await reopened.close();
		}
	});

	it("never drops a complete last line: one that does not parse is corruption, named, and the file is left as it was", async () => {
		const path = tempSessionPath();
		const { bytes } = await writeSample(path);
		const broken = Buffer.concat([bytes, Buffer.from('{"type":"message","id":\n')]);
		writeFileSync(path, broken);
		const error = await openSessionFile(path).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(SessionCorruptError);
		expect(error).toMatchObject({ line: 7, byteOffset: bytes.length });
		expect(readFileSync(path)).toEqual(broken);
	});

	it("a file cut inside its header starts over as a new, empty session", async () => {
		const path = tempSessionPath();
		const { lineEnds, bytes } = await writeSample(path);
		writeFileSync(path, bytes.subarray(0, (lineEnds[0] as number) - 5));
		const session = await openSessionFile(path);
		expect(session.repaired).toBe(true);
		expect(session.entryCount).toBe(0);
		await session.appendMessage(user("new start"));
		await session.close();
		expect(JSON.parse(readFileSync(path, "utf8").split("\n")[0] as string)).toMatchObject({ type: "session", version: 1 });
	});

	it("a reader that does not hold the lock leaves the torn tail alone, and its append is refused", async () => {
		const path = tempSessionPath();
		const { bytes, lineEnds } = await writeSample(path);
		const cut = (lineEnds[5] as number) - 3;
		truncateSync(path, cut);
		const reader = await openSessionFile(path, { lock: false });
		expect(reader.repaired).toBe(true);
		expect(reader.entryCount).toBe(4);
		expect(statSync(path).size).toBe(cut);
		await expect(reader.appendMessage(user("x"))).rejects.toBeInstanceOf(SessionConflictError);
		await reader.close();
		void bytes;
	});
});

describe("corruption before the last line", () => {
	it("rejects with SessionCorruptError naming the line and its byte offset", async () => {
		const path = tempSessionPath();
		const { bytes, lineEnds } = await writeSample(path);
		// Break entry 2 (line 3): overwrite its first byte.
		const start = lineEnds[1] as number;
		const broken = Buffer.from(bytes);
		broken[start] = "X".charCodeAt(0);
		writeFileSync(path, broken);
		const error = await openSessionFile(path).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(SessionCorruptError);
		const corrupt = error as SessionCorruptError;
		expect(corrupt.line).toBe(3);
		expect(corrupt.byteOffset).toBe(start);
		expect(corrupt.message).toContain(path);
		expect(corrupt.message).toContain("line 3");
		expect(corrupt.message).toContain(`byte offset ${start}`);
		// Nothing was changed or skipped: the file is as it was, and the lock is free again.
		expect(readFileSync(path)).toEqual(broken);
		await expect(openSessionFile(path)).rejects.toBeInstanceOf(SessionCorruptError);
	});

	it("rejects a line that is JSON but not an entry, a blank line, and a broken tree", async () => {
		const path = tempSessionPath();
		const { bytes, lineEnds } = await writeSample(path);
		const at = lineEnds[2] as number;
		const insert = (text: string) => writeFileSync(path, Buffer.concat([bytes.subarray(0, at), Buffer.from(text), bytes.subarray(at)]));

		insert('{"type":"message","id":"zz","parentId":null,"timestamp":1}\n');
		await expect(openSessionFile(path)).rejects.toThrow(/line 4, byte offset \d+.*"message"/);
		insert("\n");
		await expect(openSessionFile(path)).rejects.toThrow(/line 4/);
		insert('{"type":"custom","id":"zz","parentId":"nowhere","timestamp":1,"customType":"x"}\n');
		await expect(openSessionFile(path)).rejects.toBeInstanceOf(SessionCorruptError);
	});

	it("rejects a file whose first line is not a session header, naming line 1", async () => {
		const path = tempSessionPath();
		writeFileSync(path, '{"hello":"world"}\n{"type":"custom","id":"a","parentId":null,"timestamp":1,"customType":"x"}\n');
		const error = (await openSessionFile(path).catch((e: unknown) => e)) as SessionCorruptError;
		expect(error).toBeInstanceOf(SessionCorruptError);
		expect([error.line, error.byteOffset]).toEqual([1, 0]);
	});
});
