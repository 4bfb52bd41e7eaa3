import { readFileSync, writeFileSync } from "node:fs";
import { SessionError } from "@pi/agent-core";
import { openSessionFile, readSessionFileInfo } from "@pi/agent-core/node";
import { describe, expect, it } from "vitest";
import { seeded } from "../helpers/random.js";
import { tempSessionPath } from "./file-helpers.js";
import { assistant, user } from "./helpers.js";

/**
 * Issue 25's fuzz test of the session file reader: random bytes, random truncations, flipped
 * bytes, random values and random nesting. The property: opening (with and without the lock) and
 * listing either succeed or reject with a `SessionError` (never a RangeError, a stack overflow or
 * a hang); a file whose first line is not a session header is never modified; a file that opened
 * for writing opens again, unrepaired, with the same entries.
 */

async function sampleFile(path: string): Promise<Buffer> {
	const session = await openSessionFile(path);
	await session.appendMessage(user("first"));
	await session.appendMessage(assistant("second, ünïcödé"));
	await session.append([
		{ type: "model_change", provider: "openai", modelId: "gpt-6-luna" },
		{ type: "message", message: user("grouped") },
		{ type: "custom", customType: "note", data: { list: [1, 2, { deep: true }] } },
	]);
	await session.close();
	return readFileSync(path);
}

function deep(random: () => number): string {
	const depth = Math.floor(random() * 200_000);
	return `{"type":"custom","id":"deep${depth}","parentId":null,"timestamp":1,"customType":"x","data":${"[".repeat(depth)}${"]".repeat(depth)}}`;
}

function mutate(random: () => number, sample: Buffer): { name: string; bytes: Buffer } {
	const pick = (n: number) => Math.floor(random() * n);
	switch (pick(5)) {
		case 0:
			return { name: "random bytes", bytes: Buffer.from(Array.from({ length: pick(2_000) }, () => (random() < 0.05 ? 0x0a : pick(256)))) };
		case 1: {
			const cut = pick(sample.length + 1);
			const tail = Buffer.from(Array.from({ length: pick(40) }, () => pick(256)));
			return { name: `cut at ${cut}, ${tail.length} bytes of garbage`, bytes: Buffer.concat([sample.subarray(0, cut), tail]) };
		}
		case 2: {
			const bytes = Buffer.from(sample);
			const flips = 1 + pick(4);
			for (let flip = 0; flip < flips; flip++) bytes[pick(bytes.length)] = pick(256);
			return { name: `${flips} flipped bytes`, bytes };
		}
		case 3: {
			const header = sample.subarray(0, sample.indexOf(0x0a) + 1);
			return { name: "random nesting", bytes: Buffer.concat([header, Buffer.from(`${deep(random)}\n`)]) };
		}
		default: {
			const values = ["null", "1", '"x"', "[]", "{}", '{"type":"message"}', '{"type":"message","id":"z","parentId":null,"timestamp":1,"message":null}', '{"type":"session","id":"again"}', ""];
			const lines = sample.toString("utf8").split("\n");
			lines[pick(lines.length)] = values[pick(values.length)] as string;
			return { name: "a line replaced", bytes: Buffer.from(lines.join("\n")) };
		}
	}
}

function startsWithHeader(bytes: Buffer): boolean {
	const newline = bytes.indexOf(0x0a);
	const first = bytes.toString("utf8", 0, newline < 0 ? bytes.length : newline);
	try {
		const header = JSON.parse(first) as { type?: unknown; id?: unknown };
		return header?.type === "session" && typeof header.id === "string";
	} catch {
		return newline < 0 && first.startsWith('{"type":"session"');
	}
}

async function outcome(run: () => Promise<unknown>): Promise<unknown> {
	try {
		return await run();
	} catch (error) {
		return error;
	}
}

describe("session file reader fuzz", { timeout: 300_000 }, () => {
	it("300 hostile files: every open and listing settles with a result or a SessionError, and non-sessions stay untouched", async () => {
		const seed = 2513;
		const random = seeded(seed);
		const path = tempSessionPath();
		const sample = await sampleFile(path);
		for (let index = 0; index < 300; index++) {
			const { name, bytes } = mutate(random, sample);
			const at = `seed ${seed}, case ${index} (${name})`;
			writeFileSync(path, bytes);
			const listed = await outcome(() => readSessionFileInfo(path));
			if (listed instanceof Error) expect(listed, `${at}: ${listed.message}`).toBeInstanceOf(SessionError);
			const read = await outcome(async () => (await openSessionFile(path, { lock: false })).close());
			if (read instanceof Error) expect(read, `${at}: ${read.message}`).toBeInstanceOf(SessionError);
			expect(readFileSync(path).equals(bytes), `${at}: a reader wrote`).toBe(true);

			const written = await outcome(async () => {
				const session = await openSessionFile(path);
				const count = session.entryCount;
				await session.close();
				return count;
			});
			if (written instanceof Error) {
				expect(written, `${at}: ${written.message}`).toBeInstanceOf(SessionError);
				expect(readFileSync(path).equals(bytes), `${at}: a refused open wrote (${written.message})`).toBe(true);
				continue;
			}
			if (!startsWithHeader(bytes)) expect(bytes.length === 0 || readFileSync(path).equals(bytes), `${at}: a non-session was modified`).toBe(true);
			const again = await openSessionFile(path);
			expect(again.repaired, at).toBe(false);
			expect(again.entryCount, at).toBe(written);
			await again.close();
		}
	});
});
