/**
 * Issue 25, item 6: one huge server-sent event, or bytes that never end a line. The parser's
 * buffer is bounded by `maxEventBytes`; passing it ends the reply with a clear error, keeping what
 * arrived before, for every provider. Small events, however many, never count against it.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_EVENT_BYTES } from "../../src/http/event-size-limit.js";
import { sseResponse } from "../../src/testing/index.js";
import { ADAPTERS } from "./harness/adapters.js";
import { expectCase, runCase } from "./harness/run-case.js";
import { expectNoUnhandledRejections } from "./harness/unhandled-rejections.js";
import { withServer } from "./harness/with-server.js";

expectNoUnhandledRejections();

const LIMIT = 4_096;

describe.each(ADAPTERS)("$api: maxEventBytes", (adapter) => {
	it("an event larger than the bound ends the reply with an error naming it, keeping the text before it", async () => {
		await withServer(async (server) => {
			const { head } = adapter.textEvents("Before the flood.");
			const huge = `data: {"padding":"${"x".repeat(LIMIT * 4)}"}\n\n`;
			server.enqueue(sseResponse(head + huge));
			const result = await runCase(adapter, server, { maxEventBytes: LIMIT });
			expectCase(adapter, result, { stopReason: "error", requests: 1, text: "Before the flood.", errorIncludes: [`larger than maxEventBytes (${LIMIT} bytes)`] });
		});
	});

	it("bytes that never end a line end the reply the same way", async () => {
		await withServer(async (server) => {
			server.enqueue(sseResponse(`data: ${"y".repeat(LIMIT * 8)}`));
			const result = await runCase(adapter, server, { maxEventBytes: LIMIT });
			expectCase(adapter, result, { stopReason: "error", requests: 1, errorIncludes: ["or a line that never ended"] });
		});
	});

	it("a reply under the bound behind keep-alive comments far above it in total is read whole", async () => {
		await withServer(async (server) => {
			const text = "word ".repeat(LIMIT / 8);
			const keepAlives = ": keep-alive\n\n".repeat(LIMIT / 4);
			server.enqueue(sseResponse(keepAlives + adapter.textStream(text)));
			const result = await runCase(adapter, server, { maxEventBytes: LIMIT });
			expectCase(adapter, result, { stopReason: "stop", requests: 1, text });
		});
	});
});

describe("the default bound", () => {
	it("is 64 MiB", () => {
		expect(DEFAULT_MAX_EVENT_BYTES).toBe(64 * 1024 * 1024);
	});
});
