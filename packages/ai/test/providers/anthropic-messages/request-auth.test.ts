import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { streamAnthropic } from "../../../src/providers/anthropic-messages.js";
import { type ReplayServer, sseResponse, startReplayServer } from "../../../src/testing/index.js";
import { anthropicModel, ask, providerHeaders, textStream } from "./helpers.js";

/** API keys, OAuth tokens, the environment and a missing key. */
let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());

const saved = { oauth: process.env.ANTHROPIC_OAUTH_TOKEN, key: process.env.ANTHROPIC_API_KEY };
afterEach(() => {
	for (const [name, value] of [
		["ANTHROPIC_OAUTH_TOKEN", saved.oauth],
		["ANTHROPIC_API_KEY", saved.key],
	] as const) {
		if (value === undefined) delete process.env[name];
		else process.env[name] = value;
	}
});

async function send(options: Parameters<typeof streamAnthropic>[2], provider = "anthropic") {
	server.reset();
	server.enqueue(sseResponse(textStream()));
	const message = await streamAnthropic(anthropicModel({ baseUrl: server.url, provider }), ask(), { cacheRetention: "none", ...options }).result();
	return { message, request: server.requests[0] };
}

describe("anthropic-messages authentication", () => {
	it("sends an API key as x-api-key", async () => {
		const { request, message } = await send({ apiKey: "sk-ant-api03-abc" });
		expect(message.stopReason).toBe("stop");
		expect(providerHeaders(request?.headers ?? {})).toEqual({ "anthropic-version": "2023-06-01", "x-api-key": "sk-ant-api03-abc" });
	});

	it("sends an sk-ant-oat OAuth token as a bearer token with the OAuth beta first", async () => {
		const { request } = await send({ apiKey: "sk-ant-oat01-token", cacheRetention: "long" });
		expect(providerHeaders(request?.headers ?? {})).toEqual({
			"anthropic-version": "2023-06-01",
			authorization: "Bearer sk-ant-oat01-token",
			"anthropic-beta": "oauth-2025-04-20,extended-cache-ttl-2025-04-11",
		});
	});

	it("keeps the OAuth beta when the caller adds betas", async () => {
		const { request } = await send({ apiKey: "sk-ant-oat01-token", headers: { "anthropic-beta": "context-1m-2025-08-07, oauth-2025-04-20" } });
		expect(request?.headers["anthropic-beta"]).toBe("oauth-2025-04-20,context-1m-2025-08-07");
	});

	it("reads ANTHROPIC_OAUTH_TOKEN before ANTHROPIC_API_KEY from the environment", async () => {
		process.env.ANTHROPIC_API_KEY = "sk-ant-api03-env";
		process.env.ANTHROPIC_OAUTH_TOKEN = "sk-ant-oat01-env";
		const { request } = await send({});
		expect(request?.headers.authorization).toBe("Bearer sk-ant-oat01-env");
		expect(request?.headers["x-api-key"]).toBeUndefined();

		delete process.env.ANTHROPIC_OAUTH_TOKEN;
		const apiKey = await send({});
		expect(apiKey.request?.headers["x-api-key"]).toBe("sk-ant-api03-env");
	});

	it("fails without a request when no key is set, naming the variables to set", async () => {
		delete process.env.ANTHROPIC_API_KEY;
		delete process.env.ANTHROPIC_OAUTH_TOKEN;
		const { message, request } = await send({});
		expect(request).toBeUndefined();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe('No API key for provider "anthropic": set ANTHROPIC_OAUTH_TOKEN or ANTHROPIC_API_KEY, or pass options.apiKey.');
	});

	it("for a provider without key variables, asks for options.apiKey, or accepts an auth header instead", async () => {
		const missing = await send({}, "my-proxy");
		expect(missing.message.errorMessage).toBe('No API key for provider "my-proxy": pass options.apiKey.');

		const viaHeader = await send({ headers: { Authorization: "Bearer proxy-token" } }, "my-proxy");
		expect(viaHeader.message.stopReason).toBe("stop");
		expect(providerHeaders(viaHeader.request?.headers ?? {})).toEqual({ "anthropic-version": "2023-06-01", authorization: "Bearer proxy-token" });
	});
});
