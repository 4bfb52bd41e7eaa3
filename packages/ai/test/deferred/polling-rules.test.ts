/**
 * The waiting rules every deferred API shares, shown on a Message Batch that never ends unless
 * told: the wait between status checks honours `pollAfterMs`; `maxWaitMs` ends the reply
 * `deferred` again with a fresh handle (`0`, the default of `fetchDeferred`, is one check); a
 * passed `expiresAt` is an error saying it expired; an abort during a wait ends the reply at once.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fetchDeferred, streamDeferred } from "../../src/stream-deferred.js";
import { jsonResponse, type ReplayServer, startReplayServer } from "../../src/testing/index.js";
import type { DeferredHandle } from "../../src/types.js";
import { anthropicModel, KEY } from "./helpers.js";

const BATCH_ID = "msgbatch_polling";
let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const running = () => jsonResponse(200, { id: BATCH_ID, type: "message_batch", processing_status: "in_progress", results_url: null });
const handle = (extra: Partial<DeferredHandle> = {}): DeferredHandle => ({
	provider: "anthropic",
	api: "anthropic-messages",
	modelId: "claude-sonnet-4-20250514",
	id: BATCH_ID,
	data: { customId: "pi-1" },
	...extra,
});

describe("polling a deferred job", () => {
	it("waits the handle's pollAfterMs between two checks", async () => {
		const ended = jsonResponse(200, { id: BATCH_ID, processing_status: "ended", results_url: `${server.url}/v1/messages/batches/${BATCH_ID}/results` });
		const checks = server.route("GET", "/v1/messages/batches/{id}", [running(), running(), ended]);
		server.route("GET", "/v1/messages/batches/{id}/results", jsonResponse(200, { custom_id: "pi-1", result: { type: "canceled" } }));
		const message = await streamDeferred(anthropicModel(server), handle({ pollAfterMs: 60 }), { apiKey: KEY }).result();
		expect(message.rawStopReason).toBe("canceled");
		expect(checks.requests).toHaveLength(3);
		const times = checks.requests.map((request) => request.receivedAt);
		// Timers fire late, never early: every gap is at least the wait asked for (a 1 ms rounding allowed).
		for (let i = 1; i < times.length; i++) expect((times[i] as number) - (times[i - 1] as number)).toBeGreaterThanOrEqual(59);
	});

	it("ends deferred again with a fresh handle when maxWaitMs passes, and fetches no result", async () => {
		const checks = server.route("GET", "/v1/messages/batches/{id}", running());
		const results = server.route("GET", "/v1/messages/batches/{id}/results", jsonResponse(500, {}));
		const start = handle({ pollAfterMs: 20 });
		const message = await streamDeferred(anthropicModel(server), start, { apiKey: KEY, maxWaitMs: 100 }).result();
		expect(message.stopReason).toBe("deferred");
		expect(message.rawStopReason).toBe("in_progress");
		expect(message.deferred).toEqual(start);
		expect(message.deferred).not.toBe(start);
		expect(checks.requests.length).toBeGreaterThanOrEqual(1);
		expect(results.requests).toHaveLength(0);
	});

	it("makes exactly one status check with wait 0 (the default of fetchDeferred)", async () => {
		const checks = server.route("GET", "/v1/messages/batches/{id}", running());
		const message = await fetchDeferred(anthropicModel(server), handle({ pollAfterMs: 1 }), { apiKey: KEY });
		expect(message.stopReason).toBe("deferred");
		expect(checks.requests).toHaveLength(1);
		const again = await fetchDeferred(anthropicModel(server), handle({ pollAfterMs: 1 }), { apiKey: KEY, wait: 0 });
		expect(again.stopReason).toBe("deferred");
		expect(checks.requests).toHaveLength(2);
	});

	it("is an error saying it expired, without a request, when expiresAt has passed", async () => {
		const checks = server.route("GET", "/v1/messages/batches/{id}", running());
		const message = await fetchDeferred(anthropicModel(server), handle({ expiresAt: Date.now() - 1 }), { apiKey: KEY });
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/expired/);
		expect(checks.requests).toHaveLength(0);
	});

	it("is an error saying it expired when expiresAt passes while it waits", async () => {
		const checks = server.route("GET", "/v1/messages/batches/{id}", running());
		const message = await streamDeferred(anthropicModel(server), handle({ pollAfterMs: 20, expiresAt: Date.now() + 150 }), { apiKey: KEY }).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/expired/);
		expect(checks.requests.length).toBeGreaterThanOrEqual(1);
	});

	it("ends aborted at once when the signal aborts during a wait", async () => {
		const controller = new AbortController();
		const checks = server.route("GET", "/v1/messages/batches/{id}", (request) => {
			// Abort a moment after the first check was answered, in the middle of an hour-long wait.
			if (request.call === 0) setTimeout(() => controller.abort(), 50);
			return running();
		});
		// Waiting out the hour would fail on the test's own timeout: the outcome is what is asserted.
		const message = await streamDeferred(anthropicModel(server), handle({ pollAfterMs: 3_600_000 }), { apiKey: KEY, signal: controller.signal }).result();
		expect(controller.signal.aborted).toBe(true);
		expect(message.stopReason).toBe("aborted");
		expect(checks.requests).toHaveLength(1);
	});
});
