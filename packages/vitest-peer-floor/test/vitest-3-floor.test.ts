/**
 * The lower end of the optional vitest peer range of @pi/ai and @pi/agent-core
 * (`^3.0.0 || ^4.0.0`): this package runs their vitest helpers under vitest 3.0.0 exactly. The
 * upper end is the workspace's own vitest 4, under which the packages' own tests run the same
 * helpers (packages/ai/test/testing/cassettes/use-cassette.test.ts,
 * packages/agent/test/session/memory-conformance.test.ts).
 */
import { readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { createMemorySessionStorage } from "@pi/agent-core";
import { sessionStorageConformance } from "@pi/agent-core/testing";
import { jsonResponse, type Recorder, type ReplayServer, startReplayServer } from "@pi/ai/testing";
import { useCassette } from "@pi/ai/testing/vitest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
const folder = join(import.meta.dirname, "__cassettes__");

describe("under vitest 3.0.0", () => {
	it("is the vitest this file runs under", () => {
		const manifest = JSON.parse(readFileSync(require.resolve("vitest/package.json"), "utf8")) as { version: string };
		expect(manifest.version).toBe("3.0.0");
	});
});

describe("useCassette (@pi/ai/testing/vitest)", () => {
	let upstream: ReplayServer;
	let recorded: Recorder;
	beforeAll(async () => {
		rmSync(folder, { recursive: true, force: true });
		upstream = await startReplayServer({ responses: [jsonResponse(200, { hello: "world" })] });
	});
	afterAll(async () => {
		await upstream.close();
		rmSync(folder, { recursive: true, force: true });
	});

	const ask = async (recorder: Recorder) => (await fetch(`${recorder.url}/v1/hello`, { method: "POST", body: "{}" })).text();

	it("records into a cassette named after the test", async () => {
		recorded = await useCassette(undefined, { upstream: upstream.url });
		expect(recorded.cassette.dir).toBe(join(folder, "vitest-3-floor", "usecassette-pi-ai-testing-vitest-records-into-a-cassette-named-after-the-test"));
		expect(await ask(recorded)).toBe('{"hello":"world"}');
	});

	it("closed the recorder when that test finished, and replays the cassette without the upstream", async () => {
		await expect(fetch(`${recorded.url}/v1/hello`, { method: "POST", body: "{}" })).rejects.toThrow();
		const replay = await useCassette("usecassette-pi-ai-testing-vitest-records-into-a-cassette-named-after-the-test", { mode: "replay" });
		expect(await ask(replay)).toBe('{"hello":"world"}');
		expect(upstream.requests).toHaveLength(1);
	});
});

// @pi/agent-core/testing: the storage conformance suite registers its describe/it under this vitest.
sessionStorageConformance("memory storage (@pi/agent-core/testing)", {
	createLog: () => {
		const storage = createMemorySessionStorage();
		let first = true;
		// The first instance is the one created; every further one is a reopen over the same log.
		return { open: () => (first ? ((first = false), storage) : storage.reopen()) };
	},
});
