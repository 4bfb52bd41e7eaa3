/**
 * Connection faults, for every provider: a refused connection, resets before and during the
 * body, stalls before and during the body (idle timeout), and a body that ends early. Each ends
 * in exactly one terminal event, keeps what arrived, and is retried only before any content.
 */
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { sseResponse } from "../../src/testing/index.js";
import { ADAPTERS, type ProviderAdapter } from "./harness/adapters.js";
import { isContentPrefix, referenceRun } from "./harness/reference.js";
import { type CaseResult, expectCase, FAKE_KEY_OPTIONS, runCase } from "./harness/run-case.js";
import { afterEventWith } from "./harness/sse-bytes.js";
import { expectNoUnhandledRejections } from "./harness/unhandled-rejections.js";
import { withServer } from "./harness/with-server.js";

expectNoUnhandledRejections();

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const address = server.address();
	await new Promise<void>((resolve) => server.close(() => resolve()));
	if (address === null || typeof address === "string") throw new Error("no port");
	return address.port;
}

/** The final content is a prefix of the reference reply and holds the text that had arrived. */
async function expectKeptPrefix(adapter: ProviderAdapter, result: CaseResult): Promise<void> {
	const reference = await referenceRun(adapter, adapter.fixture);
	expect(isContentPrefix(result.message.content, reference.message.content), JSON.stringify(result.message.content)).toBe(true);
}

/**
 * Long enough that a loaded machine (timers late by 100-500 ms, a busy replay server) never makes a
 * healthy response look idle: the cases that must succeed share it with the stalls that must time out.
 */
const IDLE_MS = 1_000;

describe.each(ADAPTERS)("$api: connection faults", (adapter) => {
	const ok = () => sseResponse(adapter.textStream("Recovered."));
	const midStream = () => afterEventWith(adapter.fixture, adapter.firstTextMarker);

	it("connection refused: an error naming the network failure, at once when retries are off", async () => {
		const port = await closedPort();
		const retries: unknown[] = [];
		const stream = adapter.stream(adapter.model(`http://127.0.0.1:${port}`), { messages: [{ role: "user", content: "Hi", timestamp: 1 }] }, {
			...FAKE_KEY_OPTIONS,
			maxRetries: 0,
			onRetry: (info) => retries.push(info),
		});
		const message = await stream.result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/Network error/);
		expect(message.errorMessage).toMatch(/ECONNREFUSED|fetch failed/);
		expect(retries).toEqual([]);
	});

	it.concurrent("connection refused: retried (onRetry reports it), then an error", async () => {
		const port = await closedPort();
		const retries: { attempt: number; status?: number }[] = [];
		const message = await adapter
			.stream(adapter.model(`http://127.0.0.1:${port}`), { messages: [{ role: "user", content: "Hi", timestamp: 1 }] }, {
				...FAKE_KEY_OPTIONS,
				maxRetries: 1,
				onRetry: (info) => retries.push(info),
			})
			.result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain("after 1 retry");
		expect(retries).toMatchObject([{ attempt: 1, status: undefined }]);
		expect(JSON.stringify(message)).not.toContain(FAKE_KEY_OPTIONS.apiKey);
	});

	it.concurrent("reset before the response headers: retried, then succeeds", async () => {
		await withServer(async (server) => {
			server.enqueue({ resetBeforeHeaders: true }, ok());
			const result = await runCase(adapter, server);
			expectCase(adapter, result, { stopReason: "stop", requests: 2, text: "Recovered." });
		});
	});

	it("reset before the response headers, retries off: an error naming the network failure", async () => {
		await withServer(async (server) => {
			server.enqueue({ resetBeforeHeaders: true }, ok());
			const result = await runCase(adapter, server, { maxRetries: 0 });
			expectCase(adapter, result, { stopReason: "error", requests: 1, errorIncludes: [/Network error/] });
		});
	});

	it.concurrent("reset before the first body byte: retried, then succeeds", async () => {
		await withServer(async (server) => {
			server.enqueue(sseResponse(adapter.fixture, { resetAfterBytes: 0 }), ok());
			const result = await runCase(adapter, server);
			expectCase(adapter, result, { stopReason: "stop", requests: 2, text: "Recovered." });
		});
	});

	it("reset mid-stream: an error that keeps the text that arrived, never retried", async () => {
		await withServer(async (server) => {
			// Cut a few bytes into the event after the first text, so a partial event is lost too.
			server.enqueue(sseResponse(adapter.fixture, { resetAfterBytes: midStream() + 5 }), ok());
			const result = await runCase(adapter, server);
			expectCase(adapter, result, { stopReason: "error", requests: 1, textStartsWith: adapter.firstText, errorIncludes: [/Network error|terminated/i] });
			await expectKeptPrefix(adapter, result);
			expect(server.pendingResponses).toBe(1);
		});
	});

	it("stall before the response headers: the idle timeout ends it", async () => {
		await withServer(async (server) => {
			server.enqueue({ stallBeforeHeaders: true }, ok());
			const result = await runCase(adapter, server, { maxRetries: 0, idleTimeoutMs: IDLE_MS });
			expectCase(adapter, result, { stopReason: "error", requests: 1, errorIncludes: [/idle timeout/i, String(IDLE_MS)] });
		});
	});

	it.concurrent("stall before the response headers: retried after the idle timeout, then succeeds", async () => {
		await withServer(async (server) => {
			server.enqueue({ stallBeforeHeaders: true }, ok());
			const result = await runCase(adapter, server, { maxRetries: 1, idleTimeoutMs: IDLE_MS });
			expectCase(adapter, result, { stopReason: "stop", requests: 2, text: "Recovered." });
			expect(result.retries[0]?.reason).toMatch(/idle timeout/i);
		});
	});

	it("stall mid-stream: the idle timeout ends it, keeping the text that arrived", async () => {
		await withServer(async (server) => {
			server.enqueue(sseResponse(adapter.fixture, { stallAfterBytes: midStream() }), ok());
			const result = await runCase(adapter, server, { idleTimeoutMs: IDLE_MS });
			expectCase(adapter, result, { stopReason: "error", requests: 1, textStartsWith: adapter.firstText, errorIncludes: [/idle timeout/i] });
			await expectKeptPrefix(adapter, result);
		});
	});

	it("a body that ends without the final event: an error that keeps the text", async () => {
		await withServer(async (server) => {
			server.enqueue(sseResponse(adapter.fixture, { truncateAfterBytes: midStream() }), ok());
			const result = await runCase(adapter, server);
			expectCase(adapter, result, { stopReason: "error", requests: 1, textStartsWith: adapter.firstText, errorIncludes: [/ended before/i] });
			await expectKeptPrefix(adapter, result);
		});
	});

	it("the whole reply, then the connection stalls instead of closing: a complete reply", async () => {
		await withServer(async (server) => {
			const reference = await referenceRun(adapter, adapter.fixture);
			server.enqueue(sseResponse(adapter.fixture, { stallAfterBytes: adapter.fixture.length }));
			const result = await runCase(adapter, server, { idleTimeoutMs: IDLE_MS });
			const message = expectCase(adapter, result, { stopReason: reference.message.stopReason, requests: 1 });
			expect({ ...message, timestamp: 0 }).toEqual({ ...reference.message, timestamp: 0 });
		});
	});

	it("the whole reply, then the connection resets: a complete reply", async () => {
		await withServer(async (server) => {
			const reference = await referenceRun(adapter, adapter.fixture);
			server.enqueue(sseResponse(adapter.fixture, { resetAfterBytes: adapter.fixture.length }));
			const result = await runCase(adapter, server);
			const message = expectCase(adapter, result, { stopReason: reference.message.stopReason, requests: 1 });
			expect({ ...message, timestamp: 0 }).toEqual({ ...reference.message, timestamp: 0 });
		});
	});

	it("a body cut inside an event: the partial event is dropped, the rest kept", async () => {
		await withServer(async (server) => {
			server.enqueue(sseResponse(adapter.fixture, { truncateAfterBytes: midStream() + 7 }), ok());
			const result = await runCase(adapter, server);
			expectCase(adapter, result, { stopReason: "error", requests: 1, textStartsWith: adapter.firstText, errorIncludes: [/ended before/i] });
			await expectKeptPrefix(adapter, result);
		});
	});
});
