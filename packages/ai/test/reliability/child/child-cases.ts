/**
 * The cases the child process runs for each provider, and the responses the parent scripts for
 * them, in the same order. Each case makes a fixed number of requests, so one FIFO queue serves all.
 */
import { jsonResponse, type ScriptedResponse, sseResponse } from "../../../src/testing/index.js";
import type { StopReason, StreamOptions } from "../../../src/types.js";
import type { ProviderAdapter } from "../harness/adapters.js";
import { afterEventWith } from "../harness/sse-bytes.js";

export interface ChildCase {
	name: string;
	/** What the server answers, one entry per request the case makes. */
	responses(adapter: ProviderAdapter): ScriptedResponse[];
	options?: StreamOptions;
	abortAfterMs?: number;
	abortOnFirstText?: boolean;
	viaEntryPoint?: boolean;
	expected: StopReason;
}

const midStream = (adapter: ProviderAdapter) => afterEventWith(adapter.fixture, adapter.firstTextMarker);

export const CHILD_CASES: ChildCase[] = [
	{ name: "success", responses: (a) => [sseResponse(a.fixture)], expected: "stop", viaEntryPoint: true },
	{ name: "retry after 503", responses: (a) => [jsonResponse(503, { error: { message: "busy" } }, { "retry-after": "0" }), sseResponse(a.fixture)], expected: "stop" },
	{ name: "idle timeout mid-stream", responses: (a) => [sseResponse(a.fixture, { stallAfterBytes: midStream(a) })], options: { idleTimeoutMs: 1_000 }, expected: "error", viaEntryPoint: true },
	{ name: "idle timeout before headers", responses: () => [{ stallBeforeHeaders: true }], options: { idleTimeoutMs: 100, maxRetries: 0 }, expected: "error" },
	{ name: "abort before headers", responses: () => [{ stallBeforeHeaders: true }], abortAfterMs: 30, expected: "aborted", viaEntryPoint: true },
	{ name: "abort mid-stream in a stall", responses: (a) => [sseResponse(a.fixture, { stallAfterBytes: midStream(a) })], abortAfterMs: 60, expected: "aborted" },
	{ name: "abort on first text", responses: (a) => [sseResponse(a.fixture, { chunking: { delayMs: 2 } })], abortOnFirstText: true, expected: "aborted", viaEntryPoint: true },
	{
		name: "abort in a retry wait",
		responses: () => [jsonResponse(429, { error: { message: "slow down" } }, { "retry-after": "30" })],
		options: { maxRetryDelayMs: 60_000 },
		abortAfterMs: 50,
		expected: "aborted",
	},
	{ name: "reset mid-stream", responses: (a) => [sseResponse(a.fixture, { resetAfterBytes: midStream(a) + 3 })], expected: "error", viaEntryPoint: true },
	{ name: "truncated", responses: (a) => [sseResponse(a.fixture, { truncateAfterBytes: midStream(a) })], expected: "error" },
	{ name: "401", responses: (a) => [a.error(401, "auth", "bad key").response], expected: "error", viaEntryPoint: true },
];
