/**
 * The assistant, tested offline three ways:
 * - against a cassette recorded once (test/__cassettes__/assistant/adds-two-numbers), replayed by
 *   `useCassette`; `PI_CASSETTE_MODE=record` with a real key records it again;
 * - with faults (a 429, a dropped connection) layered on that recording;
 * - against real provider captures installed with `@pi/fixtures`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { jsonResponse, sseResponse, startReplayServer } from "@pi/ai/testing";
import { useCassette } from "@pi/ai/testing/vitest";
import { fixtures } from "@pi/fixtures";
import { describe, expect, it } from "vitest";
import { ask, claude, gemini } from "../src/assistant.js";

// Replaying needs no key: the recorder never calls the provider in replay mode.
const KEY = process.env.ANTHROPIC_API_KEY ?? "sk-ant-replay-needs-no-key";
const CASSETTE = join(import.meta.dirname, "__cassettes__", "assistant", "adds-two-numbers");
const UPSTREAM = "https://api.anthropic.com";

describe("with the recorded cassette", () => {
	it("adds two numbers", async () => {
		const cassette = await useCassette("adds-two-numbers", { upstream: UPSTREAM, mode: "replay" });
		const answer = await ask(claude(cassette.url), "What is 4200 + 42?", { apiKey: KEY });
		expect(answer).toEqual({ text: "4200 + 42 = 4242", toolCalls: [], outcome: "stop" });
		expect(cassette.cassette.mismatches).toEqual([]);
	});

	it("fails a changed prompt with a diff that names what changed", async () => {
		const cassette = await useCassette("adds-two-numbers", { upstream: UPSTREAM, mode: "replay" });
		const answer = await ask(claude(cassette.url), "What is 4200 + 43?", { apiKey: KEY });
		expect(answer.outcome).toBe("error");
		expect(answer.error).toContain('body.messages[0].content[0].text: recorded "What is 4200 + 42?", now "What is 4200 + 43?"');
	});

	it("holds no API key", () => {
		const folder = readdirSync(CASSETTE)[0] ?? "";
		const request = readFileSync(join(CASSETTE, folder, "request.json"), "utf8");
		expect(request).toContain('"x-api-key": "<redacted>"');
		expect(request).not.toMatch(/sk-ant-api03/);
	});
});

describe("faults layered on the recording", () => {
	const rateLimited = jsonResponse(429, { type: "error", error: { type: "rate_limit_error", message: "Number of requests has exceeded your rate limit" } }, { "retry-after": "0" });

	it("retries after a 429, then answers from the recording", async () => {
		const server = await startReplayServer({ cassette: { dir: CASSETTE, timing: "recorded", timeScale: 0, faults: [{ request: 0, replaceWith: rateLimited }] } });
		const answer = await ask(claude(server.url), "What is 4200 + 42?", { apiKey: KEY });
		await server.close();
		expect(answer.outcome).toBe("stop");
		expect(answer.text).toBe("4200 + 42 = 4242");
		expect(server.requests).toHaveLength(2);
	});

	it("reports a dropped connection, keeping the text that arrived", async () => {
		const body = readFileSync(join(CASSETTE, readdirSync(CASSETTE)[0] ?? "", "response-body.sse"), "utf8");
		const cut = Buffer.byteLength(body.slice(0, body.indexOf("content_block_stop")));
		const server = await startReplayServer({ cassette: { dir: CASSETTE, faults: [{ request: 0, resetAfterBytes: cut }] } });
		const answer = await ask(claude(server.url), "What is 4200 + 42?", { apiKey: KEY, maxRetries: 0 });
		await server.close();
		expect(answer.outcome).toBe("error");
		expect(answer.text).toBe("4200 + 42 = 4242");
		expect(answer.error).toBeTruthy();
	});
});

describe("real captures from @pi/fixtures", () => {
	it.each(fixtures.list({ api: "anthropic-messages", feature: "parallel-tool-calls" }))("$name: reports every parallel tool call", async ({ name }) => {
		const server = await startReplayServer({ responses: [sseResponse(fixtures.load("anthropic-messages", name))] });
		const answer = await ask(claude(server.url), "Look these up", { apiKey: KEY });
		await server.close();
		expect(answer.outcome).toBe("toolUse");
		expect(answer.toolCalls).toHaveLength(2);
		expect(answer.toolCalls.every((call) => Object.keys(call.arguments).length > 0)).toBe(true);
	});

	it("reports a real Gemini safety block as an error that says why", async () => {
		const server = await startReplayServer({ responses: [sseResponse(fixtures.load("google-generative-ai", "prompt-blocked-safety"))] });
		const answer = await ask(gemini(`${server.url}/v1beta`), "Something unsafe", { apiKey: "AIza-replay-needs-no-key" });
		await server.close();
		expect(answer.outcome).toBe("error");
		expect(answer.error).toContain("blockReason SAFETY");
	});
});
