/**
 * Faults layered on a recording (a 429 before it, a reset or a stall in the middle of it), a reset
 * captured while recording, and an unreachable upstream: each reaches the app as an error message
 * with its cause, keeping what arrived.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectEvents, jsonResponse, readCassette, sseResponse, startRecorder, startReplayServer } from "../../../src/testing/index.js";
import type { AssistantMessage, StreamOptions } from "../../../src/types.js";
import { ADAPTERS, CONTEXT, tempFolder } from "./harness.js";

const adapter = ADAPTERS.find((candidate) => candidate.api === "anthropic-messages") ?? (ADAPTERS[0] as (typeof ADAPTERS)[number]);
const temp = tempFolder();
const cassette = join(temp.dir, "text-basic");
const KEY = "sk-ant-faults-key-00000000";
afterAll(() => temp.remove());

async function call(origin: string, options: Partial<StreamOptions> = {}): Promise<AssistantMessage> {
	const { message } = await collectEvents(adapter.stream(adapter.model(origin), CONTEXT, { apiKey: KEY, maxRetries: 0, ...options }));
	return message;
}

const textOf = (message: AssistantMessage) => message.content.map((block) => (block.type === "text" ? block.text : "")).join("");

let full: AssistantMessage;
beforeAll(async () => {
	const upstream = await startReplayServer({ responses: [sseResponse(adapter.fixture)] });
	const recorder = await startRecorder({ upstream: upstream.url, cassette, mode: "record" });
	full = await call(recorder.url);
	await recorder.close();
	await upstream.close();
	expect(full.stopReason).toBe("stop");
});

describe("faults layered on a recording", () => {
	it("a 429 first: the retry gets the recording", async () => {
		const server = await startReplayServer({
			cassette: { dir: cassette, faults: [{ request: 0, replaceWith: jsonResponse(429, { type: "error", error: { type: "rate_limit_error", message: "Slow down" } }, { "retry-after": "0" }) }] },
		});
		const message = await call(server.url, { maxRetries: 2 });
		await server.close();
		expect(server.requests).toHaveLength(2);
		expect(message.stopReason).toBe("stop");
		expect(textOf(message)).toBe(textOf(full));
	});

	it("a 429 with no retries left: the error names the status and the provider's message", async () => {
		const server = await startReplayServer({ cassette: { dir: cassette, faults: [{ request: 0, replaceWith: jsonResponse(429, { type: "error", error: { type: "rate_limit_error", message: "Slow down" } }) }] } });
		const message = await call(server.url);
		await server.close();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/429/);
		expect(message.errorMessage).toContain("Slow down");
	});

	it("a reset mid-stream keeps the text that arrived; the recording stays available for the next call", async () => {
		const cut = adapter.fixture.indexOf(adapter.firstTextMarker) + 200;
		const server = await startReplayServer({ cassette: { dir: cassette, faults: [{ request: 0, resetAfterBytes: cut }] } });
		const broken = await call(server.url);
		const again = await call(server.url);
		await server.close();
		expect(broken.stopReason).toBe("error");
		expect(broken.errorMessage).toBeTruthy();
		expect(textOf(broken).length).toBeGreaterThan(0);
		expect(textOf(full).startsWith(textOf(broken))).toBe(true);
		expect(again.stopReason).toBe("stop");
		expect(textOf(again)).toBe(textOf(full));
	});

	it("a stall mid-stream ends with the idle timeout, keeping the text", async () => {
		const cut = adapter.fixture.indexOf(adapter.firstTextMarker) + 200;
		const server = await startReplayServer({ cassette: { dir: cassette, timing: "recorded", timeScale: 0, faults: [{ request: 0, stallAfterBytes: cut }] } });
		const stalled = await call(server.url, { idleTimeoutMs: 300 });
		await server.close();
		expect(stalled.stopReason).toBe("error");
		expect(stalled.errorMessage).toMatch(/idle timeout/);
		expect(textOf(stalled).length).toBeGreaterThan(0);
	});

	it("rejects a fault beyond the body with an error naming the interaction", async () => {
		const [interaction] = readCassette(cassette);
		const server = await startReplayServer({ cassette: { dir: cassette, faults: [{ request: 0, resetAfterBytes: 10_000_000 }] } });
		const message = await call(server.url);
		await server.close();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain(`resetAfterBytes must be an integer from 0 to the body length of ${interaction?.id}`);
	});
});

describe("upstream failures while recording", () => {
	it("an upstream reset mid-body is recorded as such and replayed as such", async () => {
		const dir = join(temp.dir, "reset");
		const cut = adapter.fixture.indexOf(adapter.firstTextMarker) + 200;
		const upstream = await startReplayServer({ responses: [sseResponse(adapter.fixture, { resetAfterBytes: cut })] });
		const recorder = await startRecorder({ upstream: upstream.url, cassette: dir, mode: "record" });
		const live = await call(recorder.url);
		await recorder.close();
		await upstream.close();
		const [interaction] = readCassette(dir);
		expect(interaction?.response.ending).toBe("reset");
		expect(interaction?.response.body.length).toBe(cut);

		const server = await startReplayServer({ cassette: dir });
		const replayed = await call(server.url);
		await server.close();
		expect(live.stopReason).toBe("error");
		expect(replayed.stopReason).toBe("error");
		expect(textOf(replayed)).toBe(textOf(live));
		expect(replayed.errorMessage).toBe(live.errorMessage);
	});

	it("an unreachable upstream gives a 502 whose message names the upstream and the cause", async () => {
		const gone = await startReplayServer();
		const url = gone.url;
		await gone.close();
		const recorder = await startRecorder({ upstream: url, cassette: join(temp.dir, "gone"), mode: "record" });
		const message = await call(recorder.url);
		await recorder.close();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain(`the upstream ${url} could not be reached for POST /v1/messages`);
		expect(message.errorMessage).toContain("ECONNREFUSED");
		expect(recorder.recorded).toBe(0);
	});
});
