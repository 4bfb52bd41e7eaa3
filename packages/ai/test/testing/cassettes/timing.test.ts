/** Chunk timing: recorded per chunk, replayed in real time or with the boundaries only; optional. */
import { existsSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { readCassette, sseResponse, startRecorder, startReplayServer } from "../../../src/testing/index.js";
import { recordedPieces } from "../../../src/testing/recorded-timing.js";
import { tempFolder } from "./harness.js";

const temp = tempFolder();
afterAll(() => temp.remove());
const BODY = Array.from({ length: 12 }, (_, index) => `data: {"n":${index}}\n\n`).join("");

function wireChunks(url: string): Promise<Buffer[]> {
	return new Promise((resolve, reject) => {
		const request = httpRequest(url, { method: "POST" }, (response) => {
			const chunks: Buffer[] = [];
			response.on("data", (chunk: Buffer) => chunks.push(chunk));
			response.on("end", () => resolve(chunks));
			response.on("error", reject);
		});
		request.on("error", reject);
		request.end("{}");
	});
}

async function recordFrom(name: string, recordTiming?: boolean): Promise<string> {
	const cassette = join(temp.dir, name);
	const upstream = await startReplayServer({ responses: [sseResponse(BODY, { chunking: { seed: 5, minChunkBytes: 8, maxChunkBytes: 40, delayMs: 15 } })] });
	const recorder = await startRecorder({ upstream: upstream.url, cassette, mode: "record", recordTiming });
	expect(Buffer.concat(await wireChunks(`${recorder.url}/v1/stream`)).toString()).toBe(BODY);
	await recorder.close();
	await upstream.close();
	return cassette;
}

it("records each chunk's size and wait, and replays them in real time with the same boundaries", async () => {
	const cassette = await recordFrom("timed");
	const [interaction] = readCassette(cassette);
	const chunks = interaction?.response.chunks ?? [];
	expect(chunks.length).toBeGreaterThan(3);
	expect(typeof interaction?.response.headersAfterMs).toBe("number");
	expect(chunks.every(([size, afterMs]) => size > 0 && afterMs >= 0)).toBe(true);

	const server = await startReplayServer({ cassette: { dir: cassette, timing: "recorded", timeScale: 1 } });
	const replayed = await wireChunks(`${server.url}/v1/stream`);
	await server.close();
	expect(replayed.map((chunk) => chunk.length)).toEqual(chunks.map(([size]) => size));
	expect(Buffer.concat(replayed).toString()).toBe(BODY);
});

it("without recorded timing the replay cuts random chunks, as the server's chunking says", async () => {
	const cassette = await recordFrom("untimed", false);
	const [interaction] = readCassette(cassette);
	expect(interaction?.response.chunks).toBeUndefined();
	expect(existsSync(join(cassette, interaction?.id ?? "", "timing.json"))).toBe(false);
	const server = await startReplayServer({ cassette: { dir: cassette, timing: "recorded" }, chunking: { seed: 9, minChunkBytes: 3, maxChunkBytes: 3 } });
	const replayed = await wireChunks(`${server.url}/v1/stream`);
	await server.close();
	expect(replayed.slice(0, -1).every((chunk) => chunk.length === 3)).toBe(true);
	expect(Buffer.concat(replayed).toString()).toBe(BODY);
});

it("recordedPieces scales the waits and stops where a fault cut the body", () => {
	const body = Buffer.from("abcdefghij");
	const pieces = recordedPieces(body.subarray(0, 7), { chunks: [[4, 10], [4, 20], [2, 30]], timeScale: 0.5 });
	expect(pieces.map(({ chunk, beforeMs }) => [Buffer.from(chunk).toString(), beforeMs])).toEqual([
		["abcd", 5],
		["efg", 10],
	]);
});
