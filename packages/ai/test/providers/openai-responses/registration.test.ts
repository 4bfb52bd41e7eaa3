/**
 * The provider is a lazily loaded built-in: `stream()` and `streamSimple()` of @pi/ai reach it for
 * any model whose api is `openai-responses`.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { complete, completeSimple } from "../../../src/stream.js";
import { loadFixture, type ReplayServer, sseResponse, startReplayServer } from "../../../src/testing/index.js";
import { API, responsesModel, TEST_KEY, userContext } from "./helpers.js";

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(async () => {
	await server.close();
});

it("is reached through complete() and completeSimple() by its api name", async () => {
	server.enqueue(sseResponse(loadFixture(API, "text-basic")), sseResponse(loadFixture(API, "reasoning-summary-multipart")));
	const plain = await complete(responsesModel(server), userContext(), { apiKey: TEST_KEY });
	expect(plain.stopReason).toBe("stop");
	expect(plain.content).toEqual([expect.objectContaining({ type: "text", text: "4200 + 42 equals 4242." })]);
	const reasoning = await completeSimple(responsesModel(server), userContext(), { apiKey: TEST_KEY, reasoning: "high" });
	expect(reasoning.content.map((block) => block.type)).toEqual(["thinking", "text"]);
	expect((server.requests[1]?.json as { reasoning?: unknown }).reasoning).toEqual({ effort: "high", summary: "auto" });
});
