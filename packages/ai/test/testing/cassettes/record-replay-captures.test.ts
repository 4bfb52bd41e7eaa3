/**
 * Every recorded capture of every API, recorded through the proxy from an upstream (a replay
 * server standing in for the provider), then replayed with the upstream gone: the events and the
 * final message are the same, the chunk boundaries are the upstream's, and no key reaches disk.
 */
import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { listFixtures, loadFixture, readCassette, splitIntoChunks, sseResponse, startRecorder, startReplayServer } from "../../../src/testing/index.js";
import { ADAPTERS, filesUnder, runOnce, tempFolder } from "./harness.js";

const temp = tempFolder();
afterAll(() => temp.remove());

const KEYS: Record<string, string> = {
	"anthropic-messages": "sk-ant-api03-ROUNDTRIP-anthropic-4f1c2b",
	"openai-completions": "sk-proj-ROUNDTRIP-completions-9a8e7d",
	"openai-responses": "sk-proj-ROUNDTRIP-responses-3c2b1a",
	"google-generative-ai": "AIzaSyROUNDTRIP-google-6d5e4f",
};

describe.each(ADAPTERS.map((adapter) => ({ adapter, api: adapter.api })))("$api: record, then replay with no upstream", ({ adapter, api }) => {
	it.each(listFixtures(api).map(({ name }) => ({ name })))("$name", async ({ name }) => {
		const bytes = loadFixture(api, name);
		const chunking = { seed: name.length, maxChunkBytes: 200 };
		const cassette = join(temp.dir, api, name);
		const apiKey = KEYS[api] as string;

		const upstream = await startReplayServer({ responses: [sseResponse(bytes, { chunking })] });
		const recorder = await startRecorder({ upstream: upstream.url, cassette, mode: "record" });
		const live = await runOnce(adapter, recorder.url, apiKey);
		await recorder.close();
		await upstream.close(); // the provider is gone from here on

		// What was recorded is the upstream's body, cut where the upstream cut it.
		const [interaction] = readCassette(cassette);
		expect(interaction?.response.body.equals(bytes)).toBe(true);
		expect(interaction?.response.chunks?.map(([size]) => size)).toEqual(splitIntoChunks(bytes, chunking).map((chunk) => chunk.length));

		// Replayed by the recorder in replay mode, and by the replay server, with no upstream.
		const replayer = await startRecorder({ cassette, mode: "replay" });
		const replayed = await runOnce(adapter, replayer.url, apiKey);
		expect(replayer.cassette.mismatches).toEqual([]);
		await replayer.close();
		const server = await startReplayServer({ cassette });
		const served = await runOnce(adapter, server.url, apiKey);
		await server.close();

		expect(replayed.types).toEqual(live.types);
		expect(replayed.events).toBe(live.events);
		expect(replayed.message).toBe(live.message);
		expect(served.events).toBe(live.events);
		expect(served.message).toBe(live.message);
		expect(live.types.at(-1)).toMatch(/^(done|error)$/);

		// With recorded timing on, the client reads the body in the recorded chunks.
		const timed = await startReplayServer({ cassette: { dir: cassette, timing: "recorded", timeScale: 0 } });
		const body = await wireChunks(`${timed.url}${interaction?.request.path}${query(interaction?.request.query)}`, JSON.stringify(interaction?.request.body));
		await timed.close();
		expect(Buffer.concat(body).equals(bytes)).toBe(true);
		expect(body.map((chunk) => chunk.length)).toEqual(interaction?.response.chunks?.map(([size]) => size));

		// No key used reaches the cassette, in any file.
		for (const file of filesUnder(cassette)) expect(file.text.includes(apiKey), file.path).toBe(false);
		expect(readFileSync(join(cassette, interaction?.id ?? "", "request.json"), "utf8")).toContain("<redacted>");
	});
});

function query(record: Record<string, string> | undefined): string {
	return record ? `?${new URLSearchParams(record)}` : "";
}

/**
 * POSTs `body` and returns the response body as the chunks of its chunked transfer encoding:
 * node:http emits one "data" event per HTTP chunk, however TCP grouped them (fetch's reader may
 * merge chunks that arrive before it reads).
 */
function wireChunks(url: string, body: string): Promise<Buffer[]> {
	return new Promise((resolve, reject) => {
		const request = httpRequest(url, { method: "POST", headers: { "content-type": "application/json" } }, (response) => {
			const chunks: Buffer[] = [];
			response.on("data", (chunk: Buffer) => chunks.push(chunk));
			response.on("end", () => resolve(chunks));
			response.on("error", reject);
		});
		request.on("error", reject);
		request.end(body);
	});
}
