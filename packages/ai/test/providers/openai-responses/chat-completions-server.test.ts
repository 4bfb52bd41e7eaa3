/**
 * A Responses model pointed at a server that speaks only Chat Completions (Ollama, llama.cpp, a
 * hand-written proxy): the error says so and names `api: "openai-completions"`, whether the server
 * answers `/responses` with a 404 or with Chat Completions chunks.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamOpenAIResponses } from "../../../src/providers/openai-responses.js";
import { assertEventProtocol, jsonResponse, loadFixture, recordEvents, type ReplayServer, sseResponse, startReplayServer, textResponse } from "../../../src/testing/index.js";
import { responsesModel, TEST_KEY, userContext } from "./helpers.js";

const HINT = 'The server may speak Chat Completions rather than Responses: use api: "openai-completions" for this model.';

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());

async function run() {
	const recorded = await recordEvents(streamOpenAIResponses(responsesModel(server), userContext(), { apiKey: TEST_KEY, maxRetries: 0 }));
	return assertEventProtocol(recorded).message;
}

describe("a Responses request to a Chat Completions server", () => {
	it("a 404 (Ollama's plain-text page) keeps the status and adds the hint", async () => {
		server.reset();
		server.enqueue(textResponse(404, "404 page not found"));
		const message = await run();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe(`HTTP 404 Not Found: 404 page not found. ${HINT}`);
		expect(server.requests[0]?.path).toBe("/v1/responses");
	});

	it("a 404 with a JSON error keeps the provider's message before the hint", async () => {
		server.reset();
		server.enqueue(jsonResponse(404, { error: { message: "Unknown route /v1/responses" } }));
		const message = await run();
		expect(message.errorMessage).toContain("Unknown route /v1/responses");
		expect(message.errorMessage?.endsWith(HINT)).toBe(true);
	});

	it("a 200 stream of Chat Completions chunks ends in an error that names the other API", async () => {
		server.reset();
		server.enqueue(sseResponse(loadFixture("openai-completions", "text-basic")));
		const message = await run();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe(`The stream held no Responses events (no response.* event arrived). ${HINT}`);
	});

	it("a Responses stream cut short, and other statuses, get no such hint", async () => {
		server.reset();
		const body = Buffer.from(loadFixture("openai-responses", "text-basic")).toString("utf8");
		server.enqueue(sseResponse(body.slice(0, body.indexOf("response.output_text.done"))));
		const cut = await run();
		expect(cut.errorMessage).toContain("The stream ended before the provider's final event");
		expect(cut.errorMessage).not.toContain("Chat Completions");
		server.enqueue(jsonResponse(400, { error: { message: "Invalid value" } }));
		const bad = await run();
		expect(bad.errorMessage).not.toContain("Chat Completions");
	});
});
