import { describe, expect, it } from "vitest";
import type { Tool } from "../../../src/types.js";
import { useCapture } from "./capture.js";
import { ask, providerHeaders } from "./helpers.js";

/**
 * `compat.supportsEagerToolInputStreaming`: fine-grained tool streaming, per tool
 * (`eager_input_streaming: true`, the default) or, where the server does not take that field,
 * for the whole request through the `fine-grained-tool-streaming-2025-05-14` beta. Golden tools
 * and headers through the replay server.
 */
const { capture } = useCapture();

const noCache = { cacheRetention: "none" } as const;
const SCHEMA = { type: "object", properties: { path: { type: "string" } }, required: ["path"] };
const TOOLS = [
	{ name: "read", description: "Read a file", parameters: SCHEMA },
	{ name: "list", description: "List files", parameters: { type: "object", properties: {} } },
] as unknown as Tool[];

const BETA = "fine-grained-tool-streaming-2025-05-14";

describe("compat.supportsEagerToolInputStreaming", () => {
	it("unset (default true): every tool asks for eager input streaming, and no beta is sent", async () => {
		const { body, request } = await capture(ask("Go", { tools: TOOLS }), noCache);
		expect(body.tools).toEqual([
			{ name: "read", description: "Read a file", eager_input_streaming: true, input_schema: SCHEMA },
			{ name: "list", description: "List files", eager_input_streaming: true, input_schema: { type: "object", properties: {} } },
		]);
		expect(providerHeaders(request.headers)).toEqual({ "anthropic-version": "2023-06-01", "x-api-key": "sk-ant-api03-test" });
	});

	it("false: no tool carries the field; the request asks for the same streaming with the beta header", async () => {
		const { body, request } = await capture(ask("Go", { tools: TOOLS }), noCache, { compat: { supportsEagerToolInputStreaming: false } });
		expect(body.tools).toEqual([
			{ name: "read", description: "Read a file", input_schema: SCHEMA },
			{ name: "list", description: "List files", input_schema: { type: "object", properties: {} } },
		]);
		expect(providerHeaders(request.headers)).toEqual({
			"anthropic-version": "2023-06-01",
			"x-api-key": "sk-ant-api03-test",
			"anthropic-beta": BETA,
		});
	});

	it("false without tools: nothing to stream, so no beta", async () => {
		const { body, request } = await capture(ask("Hi"), noCache, { compat: { supportsEagerToolInputStreaming: false } });
		expect(body.tools).toBeUndefined();
		expect(request.headers["anthropic-beta"]).toBeUndefined();
	});

	it("false: the beta comes first, next to the others the request needs and the caller's", async () => {
		const { request } = await capture(
			ask("Go", { tools: TOOLS }),
			{ ...noCache, thinkingEnabled: true, headers: { "anthropic-beta": "context-1m-2025-08-07" } },
			{ compat: { supportsEagerToolInputStreaming: false } },
		);
		expect(request.headers["anthropic-beta"]).toBe(`${BETA},interleaved-thinking-2025-05-14,context-1m-2025-08-07`);
	});
});
