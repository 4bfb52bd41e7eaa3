import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamAnthropic } from "../../src/providers/anthropic-messages.js";
import { streamOpenAICompletions } from "../../src/providers/openai-completions.js";
import { assertEventProtocol, loadFixture, recordEvents, type ReplayServer, sseResponse, startReplayServer, textResponse } from "../../src/testing/index.js";
import type { Api, Model, ProviderResponse } from "../../src/types.js";
import { anthropicModel, ask } from "../providers/anthropic-messages/helpers.js";
import { completionsModel } from "../providers/openai-completions/helpers.js";

/** The reference's `onResponse` and `timeoutMs` stream options, through the shared HTTP seam. */
let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());

const KEY = "sk-ant-api03-on-response-secret";

describe("onResponse", () => {
	it("is told each attempt's status and headers, with the model, before the body is read", async () => {
		server.reset();
		server.enqueue(textResponse(500, "Internal Server Error"), sseResponse(loadFixture("anthropic-messages", "text-raw-padded")));
		const seen: { response: ProviderResponse; model: Model<Api> }[] = [];
		const model = anthropicModel({ baseUrl: server.url });
		const recorded = await recordEvents(
			streamAnthropic(model, ask(), { apiKey: KEY, maxRetryDelayMs: 60_000, onResponse: (response, from) => void seen.push({ response, model: from }) }),
		);
		const { message } = assertEventProtocol(recorded);
		expect(message.stopReason).toBe("stop");
		expect(seen.map((entry) => entry.response.status)).toEqual([500, 200]);
		expect(seen[1]?.response.headers["content-type"]).toMatch(/event-stream/);
		expect(seen.every((entry) => entry.model === model)).toBe(true);
	});

	it("a throwing callback ends the reply with an error naming it, unretried, without the key", async () => {
		server.reset();
		server.enqueue(sseResponse(loadFixture("openai-completions", "text-basic")));
		const recorded = await recordEvents(
			streamOpenAICompletions(completionsModel({ baseUrl: server.url }), ask(), {
				apiKey: KEY,
				onResponse: () => {
					throw new Error(`refused ${KEY}`);
				},
			}),
		);
		const { message } = assertEventProtocol(recorded);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/onResponse callback failed: refused/);
		expect(message.errorMessage).not.toContain(KEY);
		expect(server.requests).toHaveLength(1);
	});
});

describe("timeoutMs", () => {
	it("a reply still streaming when the time is up ends as an error (not aborted), keeping what arrived", async () => {
		server.reset();
		const bytes = loadFixture("anthropic-messages", "max-tokens");
		server.enqueue(sseResponse(bytes, { stallAfterBytes: Math.floor(bytes.length / 2) }));
		const recorded = await recordEvents(streamAnthropic(anthropicModel({ baseUrl: server.url }), ask(), { apiKey: KEY, timeoutMs: 300 }));
		const { message } = assertEventProtocol(recorded);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/timeout|timed out/i);
		expect(message.content.length).toBeGreaterThan(0);
	});

	it("a reply that finishes in time is untouched", async () => {
		server.reset();
		server.enqueue(sseResponse(loadFixture("anthropic-messages", "text-raw-padded")));
		const recorded = await recordEvents(streamAnthropic(anthropicModel({ baseUrl: server.url }), ask(), { apiKey: KEY, timeoutMs: 60_000 }));
		expect(assertEventProtocol(recorded).message.stopReason).toBe("stop");
	});
});
