/**
 * Issue 25, item 9: a gateway key in `model.headers` (Portkey's `x-portkey-api-key`, say) or in
 * `options.headers` never reaches a cassette. Headers whose name looks like a credential, and
 * every request header not on the allow-list, are written as `<redacted>`, and their values are
 * redacted wherever else they appear.
 */
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { complete } from "../../../src/stream.js";
import { readCassette, sseResponse, startRecorder, startReplayServer } from "../../../src/testing/index.js";
import { isSecretRequestHeader } from "../../../src/testing/cassette-secrets.js";
import type { Model } from "../../../src/types.js";
import { filesUnder, tempFolder } from "./harness.js";

const temp = tempFolder();
afterAll(() => temp.remove());

const GATEWAY_KEY = "pk-PORTKEY-gateway-key-0123456789";
const VIRTUAL_KEY = "vk-openai-virtual-9876543210";
const TRACE = "trace-CUSTOM-header-value-42";
const reply = `data: ${JSON.stringify({ id: "c1", choices: [{ index: 0, delta: { content: "Hi" }, finish_reason: "stop" }] })}\n\ndata: [DONE]\n\n`;

it("a gateway key in model.headers, and any header off the allow-list in options.headers, are redacted on disk", async () => {
	const upstream = await startReplayServer({ responses: [sseResponse(reply)] });
	const cassette = join(temp.dir, "gateway");
	const recorder = await startRecorder({ upstream: upstream.url, cassette, mode: "record" });
	const model: Model<"openai-completions"> = {
		id: "gpt-4o-mini", name: "x", api: "openai-completions", provider: "openai", baseUrl: `${recorder.url}/v1`,
		reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 128_000, maxTokens: 1000,
		headers: { "x-portkey-api-key": GATEWAY_KEY, "x-portkey-virtual-key": VIRTUAL_KEY },
	};
	const message = await complete(model, { messages: [{ role: "user", content: `my gateway key is ${GATEWAY_KEY}`, timestamp: 1 }] }, { apiKey: "sk-openai-real-key-000111222", headers: { "x-trace-id": TRACE } });
	expect(message.stopReason).toBe("stop");
	// The upstream got every header unchanged.
	expect(upstream.requests[0]?.headers["x-portkey-api-key"]).toBe(GATEWAY_KEY);
	await recorder.close();
	await upstream.close();

	for (const file of filesUnder(cassette)) for (const value of [GATEWAY_KEY, VIRTUAL_KEY, TRACE, "sk-openai-real-key-000111222"]) expect(file.text.includes(value), `${value} in ${file.path}`).toBe(false);
	const [interaction] = readCassette(cassette);
	expect(interaction?.request.headers).toMatchObject({ "x-portkey-api-key": "<redacted>", "x-portkey-virtual-key": "<redacted>", "x-trace-id": "<redacted>", authorization: "<redacted>", "content-type": "application/json", accept: "text/event-stream" });
	expect(JSON.stringify(interaction?.request.body)).toContain("my gateway key is <redacted>");
});

it("the rule: credential-looking names always, and any name off the allow-list", () => {
	for (const name of ["x-portkey-api-key", "X-Auth-Token", "x-client-secret", "helicone-auth", "x-password", "openai-organization", "x-custom"]) expect(isSecretRequestHeader(name), name).toBe(true);
	for (const name of ["content-type", "accept", "anthropic-version", "anthropic-beta", "openai-beta", "x-goog-api-client"]) expect(isSecretRequestHeader(name), name).toBe(false);
});
