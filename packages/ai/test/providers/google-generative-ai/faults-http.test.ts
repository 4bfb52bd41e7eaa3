/** HTTP failures through the shared seam: retries, error statuses, HTML error pages, key redaction. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { streamGoogle } from "../../../src/providers/google-generative-ai.js";
import { assertEventProtocol, htmlError, jsonResponse, type ReplayServer, sseResponse, startReplayServer } from "../../../src/testing/index.js";
import type { RetryInfo } from "../../../src/types.js";
import { geminiModel, HELLO, OK_STREAM, onServer, run, TEST_KEY } from "./helpers.js";

describe("google-generative-ai faults: HTTP errors", () => {
	let server: ReplayServer;
	const savedKey = process.env.GEMINI_API_KEY;
	beforeAll(async () => {
		server = await startReplayServer();
	});
	afterAll(() => server.close());
	afterEach(() => {
		server.reset();
		if (savedKey === undefined) delete process.env.GEMINI_API_KEY;
		else process.env.GEMINI_API_KEY = savedKey;
	});

	it("retries a 429 after its retry-after, then succeeds, telling onRetry", async () => {
		server.enqueue(
			jsonResponse(429, { error: { code: 429, message: "Resource has been exhausted (e.g. check quota).", status: "RESOURCE_EXHAUSTED" } }, { "retry-after": "0" }),
			sseResponse(OK_STREAM),
		);
		const retries: RetryInfo[] = [];
		const recorded = await run(server, { onRetry: (info) => retries.push(info) });
		const { message } = assertEventProtocol(recorded);
		expect(message.stopReason).toBe("stop");
		expect(message.content).toEqual([{ type: "text", text: "ok" }]);
		expect(server.requests).toHaveLength(2);
		expect(retries).toHaveLength(1);
		expect(retries[0]).toMatchObject({ attempt: 1, delayMs: 0, status: 429 });
		expect(retries[0]?.reason).toContain("RESOURCE_EXHAUSTED");
	});

	it("retries a 500, then succeeds", async () => {
		server.enqueue(jsonResponse(500, { error: { code: 500, message: "Internal error encountered.", status: "INTERNAL" } }), sseResponse(OK_STREAM));
		const retries: RetryInfo[] = [];
		const { message } = assertEventProtocol(await run(server, { onRetry: (info) => retries.push(info), maxRetryDelayMs: 5_000 }));
		expect(message.stopReason).toBe("stop");
		expect(retries.map((info) => info.status)).toEqual([500]);
		expect(server.requests).toHaveLength(2);
	});

	it("fails on 401 with the status and Gemini's message, never the key", async () => {
		server.enqueue(
			jsonResponse(401, { error: { code: 401, message: `API key not valid: ${TEST_KEY}. Please pass a valid API key.`, status: "UNAUTHENTICATED" } }),
		);
		const { message } = assertEventProtocol(await run(server));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain("401");
		expect(message.errorMessage).toContain("UNAUTHENTICATED");
		expect(message.errorMessage).toContain("API key not valid");
		expect(message.errorMessage).not.toContain(TEST_KEY);
		expect(server.requests).toHaveLength(1);
	});

	it("scrubs a key that came from the environment too", async () => {
		process.env.GEMINI_API_KEY = "env-secret-key-42";
		server.enqueue(jsonResponse(400, [{ error: { code: 400, message: "API key env-secret-key-42 not valid.", status: "INVALID_ARGUMENT" } }]));
		const message = await streamGoogle(onServer(server, geminiModel()), HELLO).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain("400");
		expect(message.errorMessage).toContain("not valid");
		expect(message.errorMessage).not.toContain("env-secret-key-42");
	});

	it("extracts the message from an HTML 502 page", async () => {
		server.enqueue(htmlError(502));
		const { message } = assertEventProtocol(await run(server, { maxRetries: 0 }));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain("502");
		expect(message.errorMessage).toContain("Bad Gateway");
		expect(message.errorMessage).not.toContain("<html");
	});

	it("retries an HTML 502 and succeeds", async () => {
		server.enqueue(htmlError(502, { "retry-after": "0" }), sseResponse(OK_STREAM));
		const { message } = assertEventProtocol(await run(server));
		expect(message.stopReason).toBe("stop");
		expect(server.requests).toHaveLength(2);
	});
});
