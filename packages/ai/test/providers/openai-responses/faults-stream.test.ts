/**
 * Faults once the stream has started: a reset, a stall, a truncated body and a malformed event
 * all end the message with `error`, keeping the content that arrived.
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

// text-basic: created, in_progress, output_item.added, content_part.added, then deltas "420", "0", " +", " ", …
const TEXT = loadFixture(API, "text-basic");
const AFTER_TWO_DELTAS = offsetAfterEvents(TEXT, 6);

async function run(options: Parameters<typeof streamOpenAIResponses>[2] = {}) {
	const recorded = await recordEvents(streamOpenAIResponses(responsesModel(server), userContext(), { apiKey: TEST_KEY, ...options }));
	return { recorded, message: assertEventProtocol(recorded).message };
}

describe("stream faults", () => {
	it("keeps the text of a connection reset mid-stream and does not retry", async () => {
		server.reset();
		server.enqueue(sseResponse(TEXT, { resetAfterBytes: AFTER_TWO_DELTAS }));
		const { message } = await run();
		expect(message.stopReason).toBe("error");
		expect(message.content).toEqual([expect.objectContaining({ type: "text", text: "4200" })]);
		expect(message.responseId).toBe("resp_0360bd45725b0a010068f966a4c4a881959717ba17b93477ef");
		expect(message.errorMessage).toMatch(/network|terminated|socket|reset/i);
		expect(server.requests).toHaveLength(1);
	});

	it("ends a stalled stream after idleTimeoutMs, naming the idle timeout and keeping the text", async () => {
		server.reset();
		server.enqueue(sseResponse(TEXT, { stallAfterBytes: AFTER_TWO_DELTAS }));
		const { message } = await run({ idleTimeoutMs: 1_000 });
		// No time bound: the server stalls for ever, so only the idle timeout can have ended it.
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain("idle timeout");
		expect(message.content).toEqual([expect.objectContaining({ type: "text", text: "4200" })]);
	});

	it("reports a body that ends before response.completed as an error, keeping the text", async () => {
		server.reset();
		server.enqueue(sseResponse(TEXT, { truncateAfterBytes: AFTER_TWO_DELTAS }));
		const { message } = await run();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain("ended before the provider's final event");
		expect(message.content).toEqual([expect.objectContaining({ type: "text", text: "4200" })]);
	});

	it("fails clearly on a malformed event, keeping the text before it", async () => {
		server.reset();
		const broken = Buffer.concat([TEXT.subarray(0, AFTER_TWO_DELTAS), Buffer.from('event: response.output_text.delta\ndata: {"type":"response.output_text.delta",\n\n')]);
		server.enqueue(sseResponse(broken));
		const { message } = await run();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/^Malformed JSON in stream event: \{"type":"response\.output_text\.delta",/);
		expect(message.content).toEqual([expect.objectContaining({ type: "text", text: "4200" })]);
	});

	it("ends an empty 200 stream with an error instead of hanging", async () => {
		server.reset();
		server.enqueue(sseResponse(""));
		const { message } = await run();
		expect(message.stopReason).toBe("error");
		expect(message.content).toEqual([]);
	});
});
