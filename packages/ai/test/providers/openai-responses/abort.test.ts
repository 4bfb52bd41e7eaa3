/**
 * Aborting the caller's signal, before the request or while text streams, ends the message with
 * `aborted` at once, keeping what arrived.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { streamOpenAIResponses } from "../../../src/providers/openai-responses.js";
import { assertEventProtocol, loadFixture, recordEvents, type ReplayServer, sseResponse, startReplayServer } from "../../../src/testing/index.js";
import type { AssistantMessageEvent } from "../../../src/types.js";
import { API, offsetAfterEvents, responsesModel, TEST_KEY, userContext } from "./helpers.js";

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(async () => {
	await server.close();
});

const TEXT = loadFixture(API, "text-basic");

it("ends at once without a request when the signal is already aborted", async () => {
	server.reset();
	const controller = new AbortController();
	controller.abort();
	const recorded = await recordEvents(streamOpenAIResponses(responsesModel(server), userContext(), { apiKey: TEST_KEY, signal: controller.signal }));
	const { message } = assertEventProtocol(recorded);
	expect(message.stopReason).toBe("aborted");
	expect(message.errorMessage).toBe("Request was aborted.");
	expect(server.requests).toHaveLength(0);
});

it("aborts while waiting for the response headers", async () => {
	server.reset();
	server.enqueue({ stallBeforeHeaders: true });
	const controller = new AbortController();
	const s = streamOpenAIResponses(responsesModel(server), userContext(), { apiKey: TEST_KEY, signal: controller.signal });
	setTimeout(() => controller.abort(), 50);
	const { message } = assertEventProtocol(await recordEvents(s));
	expect(message.stopReason).toBe("aborted");
	expect(message.content).toEqual([]);
});

it("aborts mid-stream, keeping the text that arrived", async () => {
	// A server of its own: the request the test above aborted can still reach the shared one after
	// its reset and take the response scripted here.
	const own = await startReplayServer();
	try {
		own.enqueue(sseResponse(TEXT, { stallAfterBytes: offsetAfterEvents(TEXT, 6) }));
		const controller = new AbortController();
		const s = streamOpenAIResponses(responsesModel(own), userContext(), { apiKey: TEST_KEY, signal: controller.signal });
		const events: AssistantMessageEvent[] = [];
		for await (const event of s) {
			events.push(event);
			if (event.type === "text_delta" && event.delta === "0") controller.abort(new Error("user pressed stop"));
		}
		const { message } = assertEventProtocol({ events, message: await s.result() });
		expect(message.stopReason).toBe("aborted");
		expect(message.errorMessage).toBe("Request was aborted: user pressed stop");
		expect(message.content).toEqual([expect.objectContaining({ type: "text", text: "4200" })]);
	} finally {
		await own.close();
	}
});
