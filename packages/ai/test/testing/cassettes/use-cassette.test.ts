/** useCassette: a cassette folder per test beside the test file, the recorder closed after the test. */
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonResponse, type Recorder, type ReplayServer, readCassette, startReplayServer } from "../../../src/testing/index.js";
import { useCassette } from "../../../src/testing/vitest.js";

const folder = join(import.meta.dirname, "__cassettes__", "use-cassette");
let upstream: ReplayServer;
let outsideTest: unknown;
beforeAll(async () => {
	rmSync(folder, { recursive: true, force: true });
	upstream = await startReplayServer({ responses: [jsonResponse(200, { hello: "world" })] });
	outsideTest = await useCassette("x").catch((error: unknown) => error);
});
afterAll(async () => {
	await upstream.close();
	// Only this file writes here: remove the whole __cassettes__ folder it created.
	rmSync(join(import.meta.dirname, "__cassettes__"), { recursive: true, force: true });
});

async function ask(recorder: Recorder): Promise<string> {
	return (await fetch(`${recorder.url}/v1/hello`, { method: "POST", body: "{}" })).text();
}

describe("useCassette", () => {
	let first: Recorder;

	it("records into __cassettes__/<test file>/<full test name> beside the test file", async () => {
		first = await useCassette(undefined, { upstream: upstream.url });
		expect(first.cassette.dir).toBe(join(folder, "usecassette-records-into-cassettes-test-file-full-test-name-beside-the-test-file"));
		expect(await ask(first)).toBe('{"hello":"world"}');
	});

	it("closed the recorder when that test ended; the cassette holds the interaction", async () => {
		await expect(fetch(`${first.url}/v1/hello`, { method: "POST", body: "{}" })).rejects.toThrow();
		expect(readCassette(first.cassette.dir).map((interaction) => interaction.request.path)).toEqual(["/v1/hello"]);
	});

	it("replays that cassette by name with no upstream", async () => {
		const replay = await useCassette("usecassette-records-into-cassettes-test-file-full-test-name-beside-the-test-file", { mode: "replay" });
		expect(await ask(replay)).toBe('{"hello":"world"}');
		expect(upstream.requests).toHaveLength(1);
	});

	it("refuses to run outside a test", () => {
		expect(String(outsideTest)).toContain("useCassette() must be called inside a test");
		expect(existsSync(join(folder, "x"))).toBe(false);
	});
});
