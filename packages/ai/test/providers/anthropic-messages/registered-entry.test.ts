import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { complete, completeSimple } from "../../../src/stream.js";
import { loadFixture, type ReplayServer, sseResponse, startReplayServer } from "../../../src/testing/index.js";
import { anthropicModel, ask } from "./helpers.js";

/** The provider is registered as a lazily loaded built-in: `complete()` reaches it by `model.api`. */
let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());

describe("anthropic-messages through the top-level entry points", () => {
	it("complete() and completeSimple() stream through the registered provider", async () => {
		server.reset();
		server.enqueue(sseResponse(loadFixture("anthropic-messages", "text-raw-padded")), sseResponse(loadFixture("anthropic-messages", "thinking-signature")));
		const model = anthropicModel({ baseUrl: server.url });

		const plain = await complete(model, ask(), { apiKey: "sk-ant-api03-entry" });
		expect(plain.content).toEqual([{ type: "text", text: "4200 + 42 = 4242" }]);
		expect(plain.api).toBe("anthropic-messages");

		const reasoning = await completeSimple(model, ask(), { apiKey: "sk-ant-api03-entry", reasoning: "low" });
		expect(reasoning.content.map((block) => block.type)).toEqual(["thinking", "text"]);
		expect((server.requests[1]?.json as { thinking?: unknown }).thinking).toEqual({ type: "enabled", budget_tokens: 2048 });
	});
});
