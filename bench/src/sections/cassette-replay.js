/**
 * 7. Cassette replay: serving a recorded cassette (`startReplayServer({ cassette })`: reading the
 * folder, matching each request by method, path and normalised body, building the response) costs
 * no more than serving the same bytes as scripted responses from the plain replay server.
 *
 * Both serve every recorded capture once per round, in the same order, cut into the same seeded
 * chunks, to a fetch client in the same process that reads each body to its end; a fresh server per
 * round (a cassette's recordings are used up once replayed), which reads its bytes from disk: the
 * captures with `loadFixture`, or the cassette folder. The cassette is recorded first through
 * `startRecorder` from the plain server, so it holds one interaction per capture.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listFixtures, loadFixture, sseResponse, startRecorder, startReplayServer } from "@pi/ai/testing";
import { summarize } from "../lib/stats.js";

const CHUNKING = { seed: 1, minChunkBytes: 4_096, maxChunkBytes: 16_384 };

/** @param {{ rounds: number, log: (line: string) => void }} options */
export async function measureCassetteReplay({ rounds, log }) {
	const captures = listFixtures().map(({ api, name }) => ({ api, name, bytes: loadFixture(api, name) }));
	const requestBody = (/** @type {{ api: string, name: string }} */ capture) => JSON.stringify({ model: "bench", stream: true, messages: [{ role: "user", content: `replay ${capture.api}/${capture.name}` }], metadata: { round: 0 } });
	const totalBytes = captures.reduce((sum, capture) => sum + capture.bytes.length, 0);
	const folder = mkdtempSync(join(tmpdir(), "pi-bench-cassette-"));
	const cassette = join(folder, "all-captures");
	try {
		// Record the cassette once, through the proxy.
		const upstream = await startReplayServer({ chunking: CHUNKING, responses: captures.map((capture) => sseResponse(capture.bytes)) });
		const recorder = await startRecorder({ upstream: upstream.url, cassette, mode: "record" });
		for (const capture of captures) await drain(`${recorder.url}/v1/replay`, requestBody(capture));
		await recorder.close();
		await upstream.close();

		// Both rounds read their bytes from disk, as a test does: the captures, or the cassette.
		const plain = () => startReplayServer({ chunking: CHUNKING, responses: captures.map(({ api, name }) => sseResponse(loadFixture(api, name))) });
		const fromCassette = () => startReplayServer({ chunking: CHUNKING, cassette: { dir: cassette, ignore: ["metadata"] } });
		/** @type {Record<"plain" | "cassette", { wall: number[], cpu: number[] }>} */
		const samples = { plain: { wall: [], cpu: [] }, cassette: { wall: [], cpu: [] } };
		const round = async (/** @type {"plain" | "cassette"} */ kind) => {
			const cpu0 = process.cpuUsage();
			const t0 = performance.now();
			const server = kind === "plain" ? await plain() : await fromCassette();
			let received = 0;
			for (const capture of captures) received += await drain(`${server.url}/v1/replay`, requestBody(capture));
			await server.close();
			const wall = performance.now() - t0;
			const cpu = process.cpuUsage(cpu0);
			if (received !== totalBytes) throw new Error(`cassette bench: ${kind} served ${received} bytes, expected ${totalBytes}`);
			if (kind === "cassette" && server.cassette?.mismatches.length) throw new Error(`cassette bench: ${server.cassette.mismatches[0]}`);
			samples[kind].wall.push(wall);
			samples[kind].cpu.push((cpu.user + cpu.system) / 1000);
		};
		await round("plain"); // warm-up, untimed in effect: dropped below
		await round("cassette");
		samples.plain.wall.length = samples.plain.cpu.length = samples.cassette.wall.length = samples.cassette.cpu.length = 0;
		for (let index = 0; index < rounds; index++) {
			// Alternate which goes first, so neither always runs on a warmer process.
			for (const kind of index % 2 === 0 ? /** @type {const} */ (["plain", "cassette"]) : /** @type {const} */ (["cassette", "plain"])) await round(kind);
		}
		const result = {
			captures: captures.length,
			mb: totalBytes / 1e6,
			plain: { wallMs: summarize(samples.plain.wall), cpuMs: summarize(samples.plain.cpu) },
			cassette: { wallMs: summarize(samples.cassette.wall), cpuMs: summarize(samples.cassette.cpu) },
		};
		log(`cassette: plain ${result.plain.cpuMs.median.toFixed(0)} CPU ms, cassette ${result.cassette.cpuMs.median.toFixed(0)} CPU ms per round of ${captures.length} captures`);
		return result;
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}

/** POSTs `body` and reads the answer to its end; returns the byte count. */
async function drain(/** @type {string} */ url, /** @type {string} */ body) {
	const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });
	let bytes = 0;
	for await (const chunk of /** @type {any} */ (response.body)) bytes += chunk.length;
	return bytes;
}
