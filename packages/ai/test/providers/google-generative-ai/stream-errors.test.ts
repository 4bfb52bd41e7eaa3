/** Failures inside a 200 stream: error objects, malformed JSON, a missing finishReason. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { assertEventProtocol, type ReplayServer, sseResponse, startReplayServer } from "../../../src/testing/index.js";
import { geminiSse, run } from "./helpers.js";

const text = (value: string) => ({ candidates: [{ content: { role: "model", parts: [{ text: value }] }, index: 0 }], responseId: "r-1" });

describe("google-generative-ai stream: errors inside the stream", () => {
	let server: ReplayServer;
	beforeAll(async () => {
		server = await startReplayServer();
	});
	afterAll(() => server.close());
	afterEach(() => server.reset());

	it("ends with the error Gemini reports in the stream, keeping the text", async () => {
		server.enqueue(sseResponse(geminiSse(text("Hello"), { error: { code: 503, message: "The model is overloaded.", status: "UNAVAILABLE" } }, text(" never"))));
		const { message } = assertEventProtocol(await run(server));
		expect(message.stopReason).toBe("error");
		expect(message.rawStopReason).toBe("UNAVAILABLE");
		expect(message.errorMessage).toBe("Gemini reported an error in the stream (UNAVAILABLE 503): The model is overloaded.");
		expect(message.content).toEqual([{ type: "text", text: "Hello" }]);
	});

	it("fails clearly on a malformed JSON chunk, keeping the text", async () => {
		server.enqueue(sseResponse(`${geminiSse(text("Hello"))}data: {"candidates": [\r\n\r\n${geminiSse(text(" never"))}`));
		const { message } = assertEventProtocol(await run(server));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe('Malformed JSON in stream event: {"candidates": [');
		expect(message.content).toEqual([{ type: "text", text: "Hello" }]);
		expect(message.responseId).toBe("r-1");
	});

	it("fails on a chunk that is JSON but not an object", async () => {
		server.enqueue(sseResponse(`${geminiSse(text("Hi"))}data: [1,2]\r\n\r\n`));
		const { message } = assertEventProtocol(await run(server));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain("expected an object, got an array");
	});

	it("reports a stream without finishReason as ended before the final event", async () => {
		server.enqueue(sseResponse(geminiSse(text("Hello"), text(" world"))));
		const { message } = assertEventProtocol(await run(server));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe(
			"The stream ended before the provider's final event: Gemini sent no finishReason, so the reply may be incomplete.",
		);
		expect(message.content).toEqual([{ type: "text", text: "Hello world" }]);
	});

	it("treats an empty 200 stream as ended before the final event", async () => {
		server.enqueue(sseResponse(""));
		const { message } = assertEventProtocol(await run(server));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain("stream ended before the provider's final event");
		expect(message.content).toEqual([]);
	});
});
