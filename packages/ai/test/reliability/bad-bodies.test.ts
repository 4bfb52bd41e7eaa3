/**
 * Bodies that are not what a provider promised, for every provider: a malformed JSON chunk, a
 * 5 MB single SSE line, a JSON error body on a 200, and legal but rare SSE framing (a BOM and
 * CR-only line endings).
 */
import { describe, expect, it } from "vitest";
import { jsonResponse, sseResponse } from "../../src/testing/index.js";
import { ADAPTERS, FAKE_KEY } from "./harness/adapters.js";
import { referenceRun } from "./harness/reference.js";
import { expectCase, runCase, textOf } from "./harness/run-case.js";
import { withBomAndCrLineEndings } from "./harness/sse-bytes.js";
import { expectNoUnhandledRejections } from "./harness/unhandled-rejections.js";
import { withServer } from "./harness/with-server.js";

expectNoUnhandledRejections();

const MB = 1024 * 1024;

describe.each(ADAPTERS)("$api: bad bodies", (adapter) => {
	it("a malformed JSON chunk: an error naming it, keeping the text before it", async () => {
		await withServer(async (server) => {
			const { head, tail } = adapter.textEvents("Kept before the bad chunk.");
			server.enqueue(sseResponse(head + adapter.malformedEvent + tail));
			const result = await runCase(adapter, server);
			expectCase(adapter, result, { stopReason: "error", requests: 1, text: "Kept before the bad chunk.", errorIncludes: ["Malformed JSON"] });
		});
	});

	// Outcome only: whether this stays linear in the line's length is a speed question, which tests
	// on a shared, loaded machine cannot answer (it belongs in bench/).
	it("a 5 MB single SSE line in 1 KB network chunks: streamed whole", async () => {
		await withServer(async (server) => {
			const bytes = 5 * MB;
			server.enqueue(sseResponse(adapter.textStream("y".repeat(bytes)), { chunking: { minChunkBytes: 1024, maxChunkBytes: 1024, awkwardCutRate: 0 } }));
			const result = await runCase(adapter, server, { idleTimeoutMs: 10_000 });
			expect(result.message.stopReason, result.message.errorMessage).toBe("stop");
			expect(textOf(result.message)).toBe("y".repeat(bytes));
		});
	}, 60_000);

	it("a 200 with a JSON error body instead of an event stream: an error with the provider's message", async () => {
		await withServer(async (server) => {
			const { response, providerMessage } = adapter.error(500, "server", "The engine is currently overloaded, please try again later");
			server.enqueue({ ...response, status: 200 }, sseResponse(adapter.textStream("not reached")));
			const result = await runCase(adapter, server);
			expectCase(adapter, result, { stopReason: "error", requests: 1, errorIncludes: ["200", providerMessage] });
		});
	});

	it("a 200 labelled as an event stream whose body is a JSON error: an error with the provider's message", async () => {
		await withServer(async (server) => {
			const { response, providerMessage } = adapter.error(429, "rate_limit", "You exceeded your current quota");
			server.enqueue(sseResponse(response.body as string), sseResponse(adapter.textStream("not reached")));
			const result = await runCase(adapter, server);
			expectCase(adapter, result, { stopReason: "error", requests: 1, errorIncludes: [providerMessage] });
		});
	});

	it("a body cut inside its first event: an error saying the stream ended early", async () => {
		await withServer(async (server) => {
			const body = adapter.textStream("never complete");
			server.enqueue(sseResponse(body, { truncateAfterBytes: body.indexOf("never") }));
			const result = await runCase(adapter, server);
			expectCase(adapter, result, { stopReason: "error", requests: 1, text: "", errorIncludes: [/ended before/i] });
		});
	});

	it("a BOM and CR-only line endings: the same reply as the capture as recorded", async () => {
		await withServer(async (server) => {
			const reference = await referenceRun(adapter, adapter.fixture);
			server.enqueue(sseResponse(withBomAndCrLineEndings(adapter.fixture)));
			const result = await runCase(adapter, server);
			const message = expectCase(adapter, result, { stopReason: reference.message.stopReason });
			expect({ ...message, timestamp: 0 }).toEqual({ ...reference.message, timestamp: 0 });
		});
	});

	it("an error body that echoes the key on a 200: scrubbed", async () => {
		await withServer(async (server) => {
			server.enqueue(jsonResponse(200, { error: { message: `Bad key ${FAKE_KEY}`, type: "invalid_request_error" } }));
			const result = await runCase(adapter, server);
			expectCase(adapter, result, { stopReason: "error", requests: 1, errorIncludes: ["[REDACTED]"] });
		});
	});
});
