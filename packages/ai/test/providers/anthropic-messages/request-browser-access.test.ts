import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamAnthropic, streamSimpleAnthropic } from "../../../src/providers/anthropic-messages.js";
import { type ReplayServer, sseResponse, startReplayServer } from "../../../src/testing/index.js";
import type { SimpleStreamOptions } from "../../../src/types.js";
import { anthropicModel, ask, providerHeaders, textStream } from "./helpers.js";

/** The opt-in header for direct browser access (the golden headers as the server received them). */
let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());

async function headersOf(send: () => Promise<unknown>) {
	server.reset();
	server.enqueue(sseResponse(textStream()));
	await send();
	return providerHeaders(server.requests[0]?.headers ?? {});
}

const model = () => anthropicModel({ baseUrl: server.url });

describe("anthropic-messages direct browser access", () => {
	it("sends anthropic-dangerous-direct-browser-access only when the app opts in", async () => {
		const optedIn = await headersOf(() => streamAnthropic(model(), ask(), { apiKey: "sk-ant-api03-k", cacheRetention: "none", dangerouslyAllowBrowser: true }).result());
		expect(optedIn).toEqual({
			"anthropic-version": "2023-06-01",
			"anthropic-dangerous-direct-browser-access": "true",
			"x-api-key": "sk-ant-api03-k",
		});
	});

	it("never sends it by default or with false", async () => {
		for (const dangerouslyAllowBrowser of [undefined, false]) {
			const headers = await headersOf(() => streamAnthropic(model(), ask(), { apiKey: "sk-ant-api03-k", cacheRetention: "none", dangerouslyAllowBrowser }).result());
			expect(headers).toEqual({ "anthropic-version": "2023-06-01", "x-api-key": "sk-ant-api03-k" });
		}
	});

	it("passes through streamSimple's options, and an explicit header still wins", async () => {
		const simple = await headersOf(() =>
			streamSimpleAnthropic(model(), ask(), { apiKey: "sk-ant-api03-k", cacheRetention: "none", dangerouslyAllowBrowser: true } as SimpleStreamOptions).result(),
		);
		expect(simple["anthropic-dangerous-direct-browser-access"]).toBe("true");
		const overridden = await headersOf(() =>
			streamAnthropic(model(), ask(), {
				apiKey: "sk-ant-api03-k",
				cacheRetention: "none",
				dangerouslyAllowBrowser: true,
				headers: { "Anthropic-Dangerous-Direct-Browser-Access": "false" },
			}).result(),
		);
		expect(overridden["anthropic-dangerous-direct-browser-access"]).toBe("false");
	});
});
