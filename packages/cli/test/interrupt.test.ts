import { loadFixture, type ReplayServer, sseResponse, startReplayServer } from "@pi/ai/testing";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { finished, spawnCli, type TempHome, tempHome, waitForOutput } from "./helpers/run-cli.js";

let server: ReplayServer;
let home: TempHome;

beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());
beforeEach(() => {
	server.reset();
	home = tempHome();
});
afterEach(() => home.remove());

/** How many bytes of `body` run through the end of the SSE event holding `marker`. */
function bytesThroughDelta(body: Uint8Array, marker: string): number {
	const text = Buffer.from(body).toString("utf8");
	const index = text.indexOf(marker);
	if (index < 0) throw new Error(`marker ${marker} not in the capture`);
	return Buffer.byteLength(text.slice(0, text.indexOf("\n\n", index) + 2));
}

it("Ctrl-C (SIGINT) aborts the request at once, keeps the partial reply on stdout and exits 130", async () => {
	const body = loadFixture("openai-completions", "length");
	// The server sends the stream up to "Alaska" and then holds the connection open, so only the
	// interrupt can end the run.
	server.enqueue(sseResponse(body, { stallAfterBytes: bytesThroughDelta(body, "Alaska") }));
	const child = spawnCli(["--base-url", `${server.url}/v1`, "-m", "m", "List the states"], { env: home.env() });
	child.stdin.end();
	const result = finished(child);
	await waitForOutput(child.stdout, /Alaska/);
	child.kill("SIGINT");
	const { code, stdout, stderr } = await result;
	expect(code).toBe(130);
	expect(stdout).toMatch(/^Here is a list of all 50 U\.S\. states:\n\n1\. Alabama\n2\. Alaska/);
	expect(stderr).toContain("pi-ai: interrupted");
});
