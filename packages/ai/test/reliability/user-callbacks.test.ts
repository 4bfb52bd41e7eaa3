/**
 * The caller's own callbacks failing, for every provider: `onPayload` throwing or rejecting, and
 * `onRetry` throwing. Each ends the stream with one `error` event naming the failure; nothing is
 * sent after a failed `onPayload`, and nothing is left unhandled.
 */
import { describe, expect, it } from "vitest";
import { sseResponse } from "../../src/testing/index.js";
import { ADAPTERS } from "./harness/adapters.js";
import { expectCase, runCase } from "./harness/run-case.js";
import { expectNoUnhandledRejections } from "./harness/unhandled-rejections.js";
import { withServer } from "./harness/with-server.js";

expectNoUnhandledRejections();

describe.each(ADAPTERS)("$api: failing callbacks", (adapter) => {
	it.each([
		["throws", () => {
			throw new Error("onPayload exploded");
		}],
		["rejects", async () => {
			throw new Error("onPayload exploded");
		}],
	])("onPayload %s: an error naming it, and no request", async (_how, onPayload) => {
		await withServer(async (server) => {
			server.enqueue(sseResponse(adapter.fixture));
			const result = await runCase(adapter, server, { onPayload });
			expectCase(adapter, result, { stopReason: "error", requests: 0, errorIncludes: ["onPayload exploded"] });
			expect(server.pendingResponses).toBe(1);
		});
	});

	it("onRetry throws: an error naming it, no second request", async () => {
		await withServer(async (server) => {
			server.enqueue(adapter.error(503, "server", "busy", { "retry-after": "0" }).response, sseResponse(adapter.fixture));
			const result = await runCase(adapter, server, {
				onRetry: () => {
					throw new Error("onRetry exploded");
				},
			});
			expect(result.message.stopReason).toBe("error");
			expect(result.message.errorMessage).toContain("onRetry exploded");
			expect(result.requests).toHaveLength(1);
		});
	});
});
