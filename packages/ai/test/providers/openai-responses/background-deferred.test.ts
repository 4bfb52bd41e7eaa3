/**
 * Background responses (`background: true`) run on as server-side jobs. When their stream ends
 * before the job does, the message ends `deferred` with a handle to resume it (the response id,
 * its status and the last sequence number seen), keeping what arrived; a non-background stream
 * cut the same way is an error.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamOpenAIResponses } from "../../../src/providers/openai-responses.js";
import { assertEventProtocol, loadFixture, recordEvents, type ReplayServer, sseResponse, startReplayServer } from "../../../src/testing/index.js";
import { API, offsetAfterEvents, responsesModel, TEST_KEY, userContext } from "./helpers.js";

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(async () => {
	await server.close();
});

// background-queued: created (queued), queued, in_progress, output_item.added, content_part.added, deltas "2", " +", …
const QUEUED = loadFixture(API, "background-queued");
const RESPONSE_ID = "resp_0da443d9ee8333600069950a0635d88196b2d9243b08e8cc01";
const handle = (data: Record<string, unknown>) => ({ provider: "openai", api: "openai-responses", modelId: "gpt-5", id: RESPONSE_ID, data });

async function run(body: ReturnType<typeof sseResponse>, options: Parameters<typeof streamOpenAIResponses>[2] = {}) {
	server.enqueue(body);
	const recorded = await recordEvents(streamOpenAIResponses(responsesModel(server), userContext(), { apiKey: TEST_KEY, ...options }));
	return assertEventProtocol(recorded).message;
}

describe("background responses", () => {
	it("defers a job whose stream ends while it is queued", async () => {
		const message = await run(sseResponse(QUEUED, { truncateAfterBytes: offsetAfterEvents(QUEUED, 2) }), { background: true });
		expect(message.stopReason).toBe("deferred");
		expect(message.rawStopReason).toBe("queued");
		expect(message.deferred).toEqual(handle({ status: "queued", sequenceNumber: 1, resumeAfter: 1 }));
		expect(message.responseId).toBe(RESPONSE_ID);
		expect(message.content).toEqual([]);
		expect(message.errorMessage).toBeUndefined();
	});

	it("recognises a background job from the response itself, and defers it once in progress", async () => {
		// No `background` option: the server's response.created says background: true.
		const message = await run(sseResponse(QUEUED, { truncateAfterBytes: offsetAfterEvents(QUEUED, 3) }));
		expect(message.stopReason).toBe("deferred");
		expect(message.deferred).toEqual(handle({ status: "in_progress", sequenceNumber: 2, resumeAfter: 2 }));
	});

	it("keeps the text that arrived before the stream ended, with the sequence number to resume after", async () => {
		const message = await run(sseResponse(QUEUED, { truncateAfterBytes: offsetAfterEvents(QUEUED, 7) }));
		expect(message.stopReason).toBe("deferred");
		expect(message.content).toEqual([expect.objectContaining({ type: "text", text: "2 +" })]);
		expect(message.deferred).toEqual(handle({ status: "in_progress", sequenceNumber: 6, resumeAfter: 2 }));
	});

	it("defers on a dropped connection too, saying why", async () => {
		const message = await run(sseResponse(QUEUED, { resetAfterBytes: offsetAfterEvents(QUEUED, 7) }));
		expect(message.stopReason).toBe("deferred");
		expect(message.content).toEqual([expect.objectContaining({ type: "text", text: "2 +" })]);
		expect(message.deferred?.data).toMatchObject({ status: "in_progress", sequenceNumber: 6 });
		expect(typeof (message.deferred?.data as { reason?: unknown } | undefined)?.reason).toBe("string");
	});

	it("ends a background job that completes in the stream as a normal reply", async () => {
		const message = await run(sseResponse(QUEUED), { background: true });
		expect(message.stopReason).toBe("stop");
		expect(message.deferred).toBeUndefined();
	});

	it("treats the same cut as an error when the response is not a background one", async () => {
		const text = loadFixture(API, "text-basic");
		const message = await run(sseResponse(text, { truncateAfterBytes: offsetAfterEvents(text, 2) }));
		expect(message.stopReason).toBe("error");
		expect(message.deferred).toBeUndefined();
	});

	it("is still aborted, not deferred, when the caller aborts", async () => {
		const controller = new AbortController();
		server.enqueue(sseResponse(QUEUED, { stallAfterBytes: offsetAfterEvents(QUEUED, 3) }));
		const s = streamOpenAIResponses(responsesModel(server), userContext(), { apiKey: TEST_KEY, signal: controller.signal, background: true });
		setTimeout(() => controller.abort(), 50);
		const { message } = assertEventProtocol(await recordEvents(s));
		expect(message.stopReason).toBe("aborted");
	});
});
