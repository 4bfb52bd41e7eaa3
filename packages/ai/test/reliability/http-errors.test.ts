/**
 * HTTP error answers, for every provider: what is retried (and reported through onRetry), how
 * retry hints are honoured, and that every final error names the status and the provider's own
 * message without the API key.
 */
import { describe, expect, it, vi } from "vitest";
import { isContextOverflow } from "../../src/context-overflow.js";
import { htmlError, sseResponse } from "../../src/testing/index.js";
import { ADAPTERS, FAKE_KEY } from "./harness/adapters.js";
import { expectCase, runCase } from "./harness/run-case.js";
import { expectNoUnhandledRejections } from "./harness/unhandled-rejections.js";
import { withServer } from "./harness/with-server.js";
import { settleIo } from "../http/settle-io.js";

expectNoUnhandledRejections();

describe.each(ADAPTERS)("$api: HTTP errors", (adapter) => {
	const ok = () => sseResponse(adapter.textStream("Recovered."));

	it("429 with retry-after in seconds: reports the retry, waits that long, then succeeds", async () => {
		// The wait is the behaviour: on fake timers the retry may come only once the clock passed it.
		vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
		try {
			await withServer(async (server) => {
				server.enqueue(adapter.error(429, "rate_limit", "Rate limit reached for requests", { "retry-after": "1" }).response, ok());
				let retried = false;
				const running = runCase(adapter, server, { maxRetryDelayMs: 5_000, onRetry: () => void (retried = true) });
				await settleIo(() => retried, 30_000);
				await vi.advanceTimersByTimeAsync(999);
				await settleIo(() => server.requests.length > 1, 200); // a premature retry would show here
				expect(server.requests).toHaveLength(1);
				await vi.advanceTimersByTimeAsync(1);
				const result = await running;
				expectCase(adapter, result, { stopReason: "stop", requests: 2, text: "Recovered." });
				expect(result.retries[0]).toMatchObject({ attempt: 1, delayMs: 1_000, status: 429 });
				expect(result.retries[0]?.reason).toContain("Rate limit reached for requests");
			});
		} finally {
			vi.useRealTimers();
		}
	});

	it.concurrent("429 with retry-after as an HTTP date: waits until then", async () => {
		await withServer(async (server) => {
			const at = new Date(Date.now() + 1_000).toUTCString();
			server.enqueue(adapter.error(429, "rate_limit", "Rate limit reached", { "retry-after": at }).response, ok());
			const result = await runCase(adapter, server, { maxRetryDelayMs: 5_000 });
			expectCase(adapter, result, { stopReason: "stop", requests: 2, text: "Recovered." });
			const delay = result.retries[0]?.delayMs ?? -1;
			// The date has one-second resolution: the wait is what is left of that second.
			expect(delay).toBeGreaterThanOrEqual(0);
			expect(delay).toBeLessThanOrEqual(1_000);
		});
	});

	it("429 with retry-after-ms: waits exactly that long", async () => {
		await withServer(async (server) => {
			server.enqueue(adapter.error(429, "rate_limit", "Rate limit reached", { "retry-after-ms": "40", "retry-after": "30" }).response, ok());
			const result = await runCase(adapter, server);
			expectCase(adapter, result, { stopReason: "stop", requests: 2, text: "Recovered." });
			expect(result.retries[0]).toMatchObject({ attempt: 1, delayMs: 40, status: 429 });
		});
	});

	it("429 asking for longer than maxRetryDelayMs: fails at once, saying how long", async () => {
		await withServer(async (server) => {
			server.enqueue(adapter.error(429, "rate_limit", "Quota exhausted for today", { "retry-after": "3600" }).response, ok());
			const result = await runCase(adapter, server, { maxRetryDelayMs: 1_000 });
			expectCase(adapter, result, { stopReason: "error", requests: 1, errorIncludes: ["429", "Quota exhausted for today", "3600 s", "maxRetryDelayMs"] });
			// Not waited out (an hour): one request, the second response still queued.
			expect(server.pendingResponses).toBe(1);
		});
	});

	it.concurrent("500 then success: retried with backoff", async () => {
		await withServer(async (server) => {
			server.enqueue(adapter.error(500, "server", "The server had an error while processing your request.").response, ok());
			const result = await runCase(adapter, server);
			expectCase(adapter, result, { stopReason: "stop", requests: 2, text: "Recovered." });
			expect(result.retries[0]).toMatchObject({ attempt: 1, status: 500 });
			expect(result.retries[0]?.reason).toContain("The server had an error");
		});
	});

	it.concurrent("500 every time: gives up after maxRetries, naming status, message and retries", async () => {
		await withServer(async (server) => {
			const failure = adapter.error(500, "server", "Internal failure in the model server", { "retry-after": "0" }).response;
			server.enqueue(failure, failure, failure, ok());
			const result = await runCase(adapter, server);
			expectCase(adapter, result, { stopReason: "error", requests: 3, errorIncludes: ["500", "Internal failure in the model server", "after 2 retries"] });
		});
	});

	it.concurrent("502 with an HTML page: retried, and the page's title is the message", async () => {
		await withServer(async (server) => {
			server.enqueue(htmlError(502), htmlError(502));
			const result = await runCase(adapter, server, { maxRetries: 1 });
			expectCase(adapter, result, { stopReason: "error", requests: 2, errorIncludes: ["502", "Bad Gateway"] });
			expect(result.message.errorMessage).not.toMatch(/<\/?(html|head|body|center|hr)/i);
		});
	});

	it.concurrent("503 then success", async () => {
		await withServer(async (server) => {
			server.enqueue(adapter.error(503, "server", "The service is temporarily unavailable", { "retry-after": "0" }).response, ok());
			const result = await runCase(adapter, server);
			expectCase(adapter, result, { stopReason: "stop", requests: 2, text: "Recovered." });
			expect(result.retries[0]).toMatchObject({ status: 503, delayMs: 0 });
		});
	});

	it.concurrent("529 with an overloaded_error body: retried, then the error names it", async () => {
		await withServer(async (server) => {
			// Anthropic's overload answer; other APIs behind a proxy may pass it on as is.
			const overloaded = {
				status: 529,
				body: JSON.stringify({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }),
				headers: { "content-type": "application/json", "retry-after": "0" },
			};
			server.enqueue(overloaded, overloaded, overloaded);
			const result = await runCase(adapter, server);
			expectCase(adapter, result, { stopReason: "error", requests: 3, errorIncludes: ["529", "overloaded_error", "Overloaded"] });
		});
	});

	it("401: not retried; the key the server echoed is scrubbed", async () => {
		await withServer(async (server) => {
			const echo = `Incorrect API key provided: ${FAKE_KEY}. You can find your API key in your account settings.`;
			server.enqueue(adapter.error(401, "auth", echo).response, ok());
			const result = await runCase(adapter, server);
			expectCase(adapter, result, { stopReason: "error", requests: 1, errorIncludes: ["401", "Incorrect API key provided", "[REDACTED]"] });
		});
	});

	it("403: not retried", async () => {
		await withServer(async (server) => {
			server.enqueue(adapter.error(403, "permission", "Your organization does not have access to this model").response, ok());
			const result = await runCase(adapter, server);
			expectCase(adapter, result, { stopReason: "error", requests: 1, errorIncludes: ["403", "Your organization does not have access to this model"] });
		});
	});

	it("400 context overflow: not retried, and isContextOverflow recognises the message", async () => {
		await withServer(async (server) => {
			server.enqueue(adapter.contextOverflow.response, ok());
			const result = await runCase(adapter, server);
			const message = expectCase(adapter, result, { stopReason: "error", requests: 1, errorIncludes: ["400", adapter.contextOverflow.providerMessage] });
			expect(isContextOverflow(message)).toBe(true);
		});
	});

	it("404 for an unknown model: not retried, names the model problem", async () => {
		await withServer(async (server) => {
			server.enqueue(adapter.unknownModel.response, ok());
			const result = await runCase(adapter, server);
			const message = expectCase(adapter, result, { stopReason: "error", requests: 1, errorIncludes: ["404", adapter.unknownModel.providerMessage] });
			expect(isContextOverflow(message)).toBe(false);
		});
	});
});
