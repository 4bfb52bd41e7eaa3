import { execFileSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync, statSync, symlinkSync, writeFileSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { SessionCorruptError, SessionLockedError } from "@pi/agent-core";
import { openSessionFile, readSessionFileInfo } from "@pi/agent-core/node";
import { describe, expect, it } from "vitest";
import { tempSessionPath } from "./file-helpers.js";
import { assistant, user } from "./helpers.js";

/** Issue 25, items 10 to 13: session files that are not what they seem. */

describe("10. a file that is not a session is never modified", () => {
	it.each([
		["a text file whose last line has no newline", "shopping:\nmilk\neggs"],
		["a one-line text file without a newline", "remember the milk"],
		["a one-line text file with its newline", "remember the milk\n"],
		["a JSON file that is not a session", '{"name":"package","version":"1.0.0"}\n{"x":1}'],
		["a file whose first line is longer than any header", `${"x".repeat(100_000)}\n`],
	])("%s: opening refuses, naming the file, and leaves every byte", async (_name, content) => {
		const path = tempSessionPath("notes.txt");
		writeFileSync(path, content);
		for (const lock of [true, false]) {
			const error = await openSessionFile(path, { lock }).catch((caught: unknown) => caught);
			expect(error).toBeInstanceOf(SessionCorruptError);
			expect((error as Error).message).toContain(`${path} is not a session file, and it was left unchanged`);
			expect((error as SessionCorruptError).line).toBe(1);
			expect(readFileSync(path, "utf8")).toBe(content);
		}
	});

	it("a session file still gets its torn tail (no final newline) dropped", async () => {
		const path = tempSessionPath();
		const session = await openSessionFile(path);
		await session.appendMessage(user("kept"));
		await session.close();
		const whole = readFileSync(path);
		writeFileSync(path, Buffer.concat([whole, Buffer.from('{"type":"message","id":"ab')]));
		const reopened = await openSessionFile(path);
		expect(reopened.repaired).toBe(true);
		expect(reopened.entryCount).toBe(1);
		await reopened.close();
		expect(readFileSync(path)).toEqual(whole);
	});
});

describe("11. new session files are private", () => {
	it("creates the file 0600, its folder 0700, and the lock 0600", async () => {
		const path = tempSessionPath("new-folder/deeper/chat.jsonl");
		const session = await openSessionFile(path);
		expect(statSync(`${path}.lock`).mode & 0o777).toBe(0o600);
		await session.appendMessage(user("secret plans"));
		await session.close();
		expect(statSync(path).mode & 0o777).toBe(0o600);
		expect(statSync(dirname(path)).mode & 0o777).toBe(0o700);
		expect(statSync(dirname(dirname(path))).mode & 0o777).toBe(0o700);
	});
});

describe("12. a lock path that is not a regular file is refused, never waited on", () => {
	it("a lock that is a symlink to a FIFO, a FIFO, or a folder: SessionLockedError naming the path", async () => {
		for (const kind of ["symlink to a FIFO", "FIFO", "folder"] as const) {
			const path = tempSessionPath();
			const lockPath = `${path}.lock`;
			if (kind === "folder") mkdirSync(lockPath);
			else {
				const fifo = kind === "FIFO" ? lockPath : join(dirname(path), "trap.fifo");
				execFileSync("mkfifo", [fifo]);
				if (kind !== "FIFO") symlinkSync(fifo, lockPath);
			}
			const error = await openSessionFile(path).catch((caught: unknown) => caught);
			expect(error, kind).toBeInstanceOf(SessionLockedError);
			expect((error as Error).message, kind).toContain(`${lockPath}, which is not a regular file`);
		}
	});

	it("a session path that is a FIFO or a folder is refused, not read forever", async () => {
		const fifo = tempSessionPath("fifo.jsonl");
		execFileSync("mkfifo", [fifo]);
		const folder = tempSessionPath("folder.jsonl");
		mkdirSync(folder);
		for (const path of [fifo, folder]) {
			for (const lock of [true, false]) {
				const error = await openSessionFile(path, { lock }).catch((caught: unknown) => caught);
				expect(error, path).toBeInstanceOf(SessionCorruptError);
				expect((error as Error).message).toContain("not a regular file");
			}
			await expect(readSessionFileInfo(path)).rejects.toThrow(/not a regular file/);
		}
	});
});

describe("13. line length is bounded; listings parse", () => {
	it("a line over maxLineBytes rejects with SessionCorruptError naming the line and offset, in a file and in its listing", async () => {
		const path = tempSessionPath();
		const session = await openSessionFile(path);
		await session.appendMessage(user("short"));
		await session.appendMessage(user("x".repeat(5_000)));
		await session.appendMessage(user("after"));
		await session.close();
		const lines = readFileSync(path, "utf8").split("\n");
		const offset = Buffer.byteLength(`${lines[0]}\n${lines[1]}\n`);
		const error = await openSessionFile(path, { maxLineBytes: 1_000 }).catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(SessionCorruptError);
		expect(error).toMatchObject({ source: path, line: 3, byteOffset: offset });
		expect((error as Error).message).toContain("line 3 is longer than 1000 bytes (maxLineBytes)");
		const reopened = await openSessionFile(path);
		expect(reopened.entryCount).toBe(3);
		await reopened.close();
	});

	it("a 600 MB line (a sparse file) hits the default bound of 128 MiB, named, instead of V8's string limit", async () => {
		const path = tempSessionPath();
		const fd = openSync(path, "w");
		const header = '{"type":"session","version":1,"id":"big","timestamp":1}\n';
		writeSync(fd, header);
		writeSync(fd, "\n", 600 * 1024 * 1024);
		closeSync(fd);
		for (const open of [() => openSessionFile(path), () => readSessionFileInfo(path)]) {
			const error = await open().catch((caught: unknown) => caught);
			expect(error).toBeInstanceOf(SessionCorruptError);
			expect(error).toMatchObject({ line: 2, byteOffset: header.length });
			expect((error as Error).message).toContain(`line 2 is longer than ${128 * 1024 * 1024} bytes (maxLineBytes)`);
		}
	});

	it("session-file-info parses every line: a file written with spaces reports its messages, model and cost", async () => {
		const path = tempSessionPath();
		const reply = { ...assistant("hello"), usage: { ...assistant("hello").usage, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.25 } } };
		const spaced = (value: unknown) => JSON.stringify(value).replace(/":/g, '": ').replace(/,"/g, ', "');
		writeFileSync(
			path,
			[
				{ type: "session", version: 1, id: "spaced", timestamp: 1 },
				{ type: "message", id: "a", parentId: null, timestamp: 2, message: user("Plan a trip") },
				{ type: "message", id: "b", parentId: "a", timestamp: 3, message: reply },
				// A user text that quotes the markers a substring search looked for.
				{ type: "custom", id: "c", parentId: "b", timestamp: 4, customType: "note", data: { text: '"type":"message" "role":"assistant"' } },
			]
				.map((line) => `${spaced(line)}\n`)
				.join(""),
		);
		const info = await readSessionFileInfo(path);
		expect(info).toMatchObject({ id: "spaced", entryCount: 3, messageCount: 2, firstLine: "Plan a trip", cost: 0.25, updatedAt: 4, model: { provider: "openai", modelId: "gpt-6-luna" } });
	});
});
