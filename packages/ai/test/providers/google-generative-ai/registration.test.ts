/** The provider is a lazily loaded built-in: `stream()`/`streamSimple()` reach it by `api`. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stream, streamSimple } from "../../../src/stream.js";
import { assertEventProtocol, collectEvents, loadFixture, type ReplayServer, sseResponse, startReplayServer } from "../../../src/testing/index.js";
import { API, geminiModel, HELLO, onServer, TEST_KEY } from "./helpers.js";

describe("google-generative-ai registration", () => {
	let server: ReplayServer;
	beforeAll(async () => {
		server = await startReplayServer();
	});
	afterAll(() => server.close());

	it("serves stream() for models with api google-generative-ai", async () => {
		server.enqueue(sseResponse(loadFixture(API, "text-basic")));
		// collectEvents, not recordEvents: the first call goes through the registry's lazy loader, which
		// re-pushes the provider's events after they happened, so push-time snapshots do not apply.
		const { message } = assertEventProtocol(await collectEvents(stream(onServer(server, geminiModel()), HELLO, { apiKey: TEST_KEY, toolChoice: "auto" })));
		expect(message.api).toBe("google-generative-ai");
		expect(message.content).toEqual([{ type: "text", text: "The capital of France is Paris.\n" }]);
		expect(server.requests[0]?.path).toBe("/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
	});

	it("serves streamSimple() with the reasoning mapping", async () => {
		server.reset();
		server.enqueue(sseResponse(loadFixture(API, "text-basic")));
		const message = await streamSimple(onServer(server, geminiModel("gemini-3-pro-preview")), HELLO, { apiKey: TEST_KEY, reasoning: "high" }).result();
		expect(message.stopReason).toBe("stop");
		expect(server.requests[0]?.json).toMatchObject({ generationConfig: { thinkingConfig: { includeThoughts: true, thinkingLevel: "high" } } });
	});
});
