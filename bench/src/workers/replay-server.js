/**
 * The one replay server both libraries talk to, in a process of its own so that its work never
 * counts in a library's CPU time. The orchestrator asks it to queue a body `requests` times, then
 * tells a library worker to make that many requests.
 */
import { sseResponse, startReplayServer } from "@pi/ai/testing";
import { serveWorker } from "../lib/child.js";
import { buildBody, buildShortBody } from "../lib/sse-bodies.js";
import { buildLargeArgsBody } from "../lib/large-args.js";
import { buildStructuredBody } from "../lib/structured-bodies.js";

// Network-sized reads: a client sees chunks of 4–16 KB, some cut inside a UTF-8 character or a
// CRLF pair, as on a real connection. The same seed sequence serves both libraries.
const server = await startReplayServer({ chunking: { minChunkBytes: 4096, maxChunkBytes: 16_384 } });
/** @type {Map<string, any>} */
const cache = new Map();

serveWorker({
	/**
	 * Queues a body `requests` times (or as many times as make `totalBytes`, when given).
	 * @param {{ kind: "fixture" | "large-args" | "short" | "structured", api?: any, cls?: any, targetBytes?: number, totalBytes?: number, maxToolCalls?: number, argsBytes?: number, requests?: number, close?: boolean }} spec
	 */
	load(spec) {
		const key = JSON.stringify({ ...spec, requests: undefined, totalBytes: undefined, close: undefined });
		let built = cache.get(key);
		if (!built) {
			built =
				spec.kind === "short"
					? buildShortBody(spec.api, spec.cls)
					: spec.kind === "structured"
						? buildStructuredBody(spec.api, /** @type {number} */ (spec.targetBytes))
						: spec.kind === "large-args"
							? buildLargeArgsBody(/** @type {number} */ (spec.argsBytes))
							: buildBody(spec.api, spec.cls, { targetBytes: /** @type {number} */ (spec.targetBytes), maxToolCalls: spec.maxToolCalls });
			cache.set(key, built);
		}
		const requests = spec.totalBytes ? Math.max(built.requests ?? 1, Math.ceil(spec.totalBytes / built.body.length)) : spec.requests ?? built.requests ?? 1;
		server.reset();
		// `close`: the server ends every connection after its reply, so each request opens a new one.
		const extras = spec.close ? { headers: { connection: "close" } } : {};
		for (let i = 0; i < requests; i++) server.enqueue(sseResponse(built.body, extras));
		return {
			url: server.url,
			requests,
			eventsPerRequest: built.eventsPerRequest,
			bodyBytes: built.body.length,
			toolCallsPerReply: built.toolCallsPerReply ?? 0,
			fixture: built.fixture,
			argsChars: built.argsChars,
		};
	},
	pending() {
		return server.pendingResponses;
	},
	clear() {
		cache.clear();
		server.reset();
		return true;
	},
});
