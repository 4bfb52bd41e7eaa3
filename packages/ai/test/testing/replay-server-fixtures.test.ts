import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listFixtures, loadFixture, type ReplayServer, sseResponse, startReplayServer } from "../../src/testing/index.js";
import { post, readBody } from "./read-body.js";

const fixtures = listFixtures();
let server: ReplayServer;

beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());

describe("the replay server serves every recorded capture byte-exact", () => {
	it("finds all 71 captures across the 4 API folders", () => {
		expect(fixtures).toHaveLength(71);
		expect(new Set(fixtures.map((fixture) => fixture.api))).toEqual(
			new Set(["anthropic-messages", "google-generative-ai", "openai-completions", "openai-responses"]),
		);
	});

	describe.each([
		{ seed: 1, maxChunkBytes: 64 },
		{ seed: 2, maxChunkBytes: 64 },
		{ seed: 3, maxChunkBytes: 300 },
	])("seed $seed, chunks of 1..$maxChunkBytes bytes", (chunking) => {
		it.each(fixtures)("$api/$name", async ({ api, name }) => {
			const bytes = loadFixture(api, name);
			server.enqueue(sseResponse(bytes, { chunking }));
			const response = await post(`${server.url}/replay`);
			expect(response.status).toBe(200);
			expect(response.headers.get("content-type")).toBe("text/event-stream");
			const body = await readBody(response);
			expect(body.error).toBeUndefined();
			expect(body.bytes.equals(bytes)).toBe(true);
			// The bytes arrive in pieces, as over a real network, not in one read.
			if (bytes.length > 4 * chunking.maxChunkBytes) expect(body.reads).toBeGreaterThan(1);
		});
	});
});
