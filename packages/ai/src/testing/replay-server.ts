import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { CassetteOptions, CassetteState } from "./cassette-player.js";
import { headersDelay, type RecordedTiming, recordedPieces } from "./recorded-timing.js";
import { type ReplayRoute, type RouteHandle, type RouteResponder, RouteTable } from "./replay-routes.js";
import type { RecordedRequest, ReplayChunking, ScriptedResponse } from "./replay-types.js";
import { listenOnLoopback } from "./loopback-listener.js";
import { splitIntoChunks } from "./split-into-chunks.js";

export type { RecordedRequest, ReplayChunking, ScriptedResponse } from "./replay-types.js";

/** Options of {@link startReplayServer}. */
export interface ReplayServerOptions {
	/**
	 * Default chunking of every response. The response to request number `k` (from 0) uses seed
	 * `seed + k` unless the response sets its own seed, so a run is deterministic yet repeated
	 * fixtures are cut differently. Defaults: seed 1, chunks of 1..64 bytes, no delay.
	 */
	chunking?: ReplayChunking;
	/** Responses to script right away, as if passed to `enqueue`. */
	responses?: readonly ScriptedResponse[];
	/**
	 * Answer as a CORS-enabled API would, for tests in a browser on another origin. Every response
	 * gets `access-control-allow-origin` (the request's origin, or `*`) and exposes its headers; a
	 * preflight (`OPTIONS` with `access-control-request-method`) is answered `204`, allowing the
	 * asked method and headers, without taking a scripted response. Preflights are recorded in
	 * `preflights`, not in `requests`. Default `false`: no CORS header at all.
	 */
	cors?: boolean;
	/**
	 * Serve a recorded cassette (a folder, or options with faults, timing and ignored fields): a
	 * request that finds the queue empty gets the recorded response that matches it, or a `404`
	 * explaining the closest recording. Enqueued responses still go first. See docs/testing.md.
	 */
	cassette?: string | CassetteOptions;
	/** Routes to add right away, as if passed to `route` (see docs/testing.md). */
	routes?: readonly ReplayRoute[];
}

/** A local HTTP server that answers requests with scripted responses, in order. */
export interface ReplayServer {
	/** The server's origin, `http://127.0.0.1:<port>`, without a trailing slash. */
	readonly url: string;
	/** The TCP port the server listens on. */
	readonly port: number;
	/** Every request received so far, in order. A live array: it grows as requests arrive. */
	readonly requests: readonly RecordedRequest[];
	/** Every CORS preflight received so far (only with the `cors` option), in order. A live array. */
	readonly preflights: readonly RecordedRequest[];
	/** How many scripted responses are still waiting for a request. */
	readonly pendingResponses: number;
	/**
	 * How many TCP connections the server has accepted so far: with keep-alive, consecutive
	 * requests of one client share one. `reset()` does not clear it.
	 */
	readonly connections: number;
	/** The served cassette (its interactions, mismatches, unused recordings); `undefined` without one. */
	readonly cassette: CassetteState | undefined;
	/**
	 * Appends responses to the queue. Each request takes the next one; with an empty queue the
	 * server answers `500` with a JSON error saying no response was scripted. Throws a `TypeError`
	 * for an invalid response (two faults, a byte count beyond the body, a bad status).
	 */
	enqueue(...responses: ScriptedResponse[]): void;
	/**
	 * Answers every request matching `method` and `path` with `respond`, before the queue is
	 * consulted: an endpoint family (submit, poll, stream, cancel) scripted as routes, with
	 * answers that change from call to call. The first matching route answers; a request no route
	 * matches takes the next queued response.
	 *
	 * @example
	 * ```ts
	 * server.route("GET", "/v1/messages/batches/{id}", [jsonResponse(200, running), jsonResponse(200, ended)]);
	 * ```
	 */
	route(method: string, path: string | RegExp, respond: RouteResponder): RouteHandle;
	/** Drops the queued responses, the routes and the recorded requests, e.g. between tests. */
	reset(): void;
	/**
	 * Stops the server: destroys every open connection (stalled ones included), cancels pending
	 * chunk delays and resolves once the server is closed, leaving no handle behind. Idempotent.
	 */
	close(): Promise<void>;
}

/**
 * Starts a {@link ReplayServer} on `127.0.0.1`, on a free port. Real sockets, real HTTP: the code
 * under test uses plain `fetch` against `server.url`. `node:http` is loaded here, on first use, so
 * importing `@pi/ai/testing` stays cheap.
 *
 * @example
 * ```ts
 * const server = await startReplayServer();
 * server.enqueue(
 *   jsonResponse(429, { error: { message: "Slow down" } }, { "retry-after": "0" }),
 *   sseResponse(loadFixture("anthropic-messages", "text-basic")),
 * );
 * const model = { ...myModel, baseUrl: `${server.url}/v1` };
 * const message = await complete(model, context, { apiKey: "test-key" });
 * expect(server.requests).toHaveLength(2);
 * expect(server.requests[1]?.headers["x-api-key"]).toBe("test-key");
 * await server.close();
 * ```
 */
export async function startReplayServer(options: ReplayServerOptions = {}): Promise<ReplayServer> {
	const { createServer } = await import("node:http");
	const defaults = options.chunking ?? {};
	const queue: ScriptedResponse[] = [];
	const requests: RecordedRequest[] = [];
	const preflights: RecordedRequest[] = [];
	const closing = new AbortController();
	const routes = new RouteTable();
	let closed: Promise<void> | undefined;

	const enqueue = (...responses: ScriptedResponse[]): void => {
		for (const response of responses) validate(response);
		queue.push(...responses);
	};
	if (options.responses) enqueue(...options.responses);
	const player = options.cassette === undefined ? undefined : await loadCassette(options.cassette);
	for (const route of options.routes ?? []) routes.add(route);

	const server = createServer((req, res) => {
		// A client that goes away mid-response makes writes fail; that is the client's business.
		req.on("error", ignore);
		res.on("error", ignore);
		const parts: Buffer[] = [];
		req.on("data", (part: Buffer) => parts.push(part));
		req.on("end", () => {
			const record = recordRequest(req, Buffer.concat(parts));
			if (options.cors) {
				allowCors(req, res);
				if (record.method === "OPTIONS" && record.headers["access-control-request-method"]) {
					preflights.push(record);
					answerPreflight(req, res);
					return;
				}
			}
			const index = requests.length;
			requests.push(record);
			const send = (response: ScriptedResponse) => {
				const chunking: ReplayChunking = { ...defaults, ...response.chunking };
				if (response.chunking?.seed === undefined) chunking.seed = (defaults.seed ?? 1) + index;
				respond(req, res, response, chunking, closing.signal).catch(() => req.socket.destroy());
			};
			const routed = routes.answer(record);
			if (routed) {
				routed.then(
					(response) => {
						validate(response);
						send(response);
					},
					(error: unknown) => routeFailed(res, record, error),
				);
				return;
			}
			const response = queue.shift() ?? player?.answer(record, index);
			if (!response) {
				unscripted(res, record, index);
				return;
			}
			send(response);
		});
	});
	const listener = await listenOnLoopback(server, "replay server");

	return {
		url: listener.url,
		port: listener.port,
		requests,
		preflights,
		get connections() {
			return listener.connections;
		},
		get pendingResponses() {
			return queue.length;
		},
		cassette: player,
		enqueue,
		route(method: string, path: string | RegExp, respond: RouteResponder) {
			return routes.add({ method, path, respond });
		},
		reset() {
			queue.length = 0;
			requests.length = 0;
			routes.clear();
			preflights.length = 0;
		},
		close() {
			closed ??= new Promise<void>((resolve) => {
				closing.abort();
				server.close(() => resolve());
				listener.destroySockets();
			});
			return closed;
		},
	};
}

/** Writes one scripted response, honouring its fault. Resolves when done or abandoned. Internal: shared with the recorder. */
export async function respond(req: IncomingMessage, res: ServerResponse, response: ScriptedResponse, chunking: ReplayChunking, closing: AbortSignal): Promise<void> {
	const socket = req.socket;
	if (response.resetBeforeHeaders) {
		socket.destroy();
		return;
	}
	if (response.stallBeforeHeaders) return; // close() destroys the socket
	const waitForHeaders = headersDelay(response.recordedTiming);
	if (waitForHeaders > 0) await pause(waitForHeaders, closing);
	if (closing.aborted) return;

	const status = response.status ?? 200;
	const headers: Record<string, string | readonly string[]> = { ...response.headers };
	if (!Object.keys(headers).some((name) => name.toLowerCase() === "content-type")) {
		headers["content-type"] = status >= 200 && status < 300 ? "text/event-stream" : "text/plain; charset=utf-8";
	}
	res.writeHead(status, headers as Record<string, string | string[]>);
	// Send the headers now, so `fetch` resolves even when the body never comes (stall or reset at 0).
	res.flushHeaders();

	const body = toBytes(response.body);
	const cutAt = response.resetAfterBytes ?? response.stallAfterBytes ?? response.truncateAfterBytes ?? body.length;
	const delayMs = response.recordedTiming ? 0 : (chunking.delayMs ?? 0);
	const sent = body.subarray(0, cutAt);
	const pieces = response.recordedTiming ? recordedPieces(sent, response.recordedTiming) : splitIntoChunks(sent, chunking).map((chunk) => ({ chunk, beforeMs: 0 }));
	for (const { chunk, beforeMs } of pieces) {
		if (beforeMs > 0) await pause(beforeMs, closing);
		if (closing.aborted || !(await writeChunk(res, chunk))) return;
		await pause(delayMs, closing);
	}
	if (closing.aborted) return;

	if (response.resetAfterBytes !== undefined) {
		// Wait until the headers (for n = 0) and the n bytes have left, so the client gets exactly those.
		await drained(socket);
		socket.destroy();
	} else if (response.stallAfterBytes === undefined) {
		res.end();
	}
	// A stalled response stays open: the client's abort or close() ends it.
}

/** CORS headers every response carries with the `cors` option (writeHead merges them in). */
function allowCors(req: IncomingMessage, res: ServerResponse): void {
	const origin = req.headers.origin;
	res.setHeader("access-control-allow-origin", origin ?? "*");
	if (origin) res.setHeader("vary", "origin");
	res.setHeader("access-control-expose-headers", "*");
}

/** A preflight's answer: allow exactly what the browser asked for. */
function answerPreflight(req: IncomingMessage, res: ServerResponse): void {
	res.writeHead(204, {
		"access-control-allow-methods": String(req.headers["access-control-request-method"]),
		"access-control-allow-headers": String(req.headers["access-control-request-headers"] ?? ""),
		"access-control-max-age": "0",
		"content-length": "0",
	});
	res.end();
}

/** The answer when a request arrives and nothing is queued: never hang, say what happened. */
function unscripted(res: ServerResponse, record: RecordedRequest, index: number): void {
	const message = `replay server: no response was scripted for request #${index} (${record.method} ${record.path}); enqueue one response per expected request`;
	const body = JSON.stringify({ error: { type: "replay_server_unscripted", message } });
	res.writeHead(500, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
	res.end(body);
}

/** A route's responder threw or gave an invalid response: answer 500 saying so, never hang. */
function routeFailed(res: ServerResponse, record: RecordedRequest, error: unknown): void {
	const message = `replay server: the route for ${record.method} ${record.path} failed: ${error instanceof Error ? error.message : String(error)}`;
	const body = JSON.stringify({ error: { type: "replay_server_route_failed", message } });
	if (res.headersSent) {
		res.destroy();
		return;
	}
	res.writeHead(500, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
	res.end(body);
}

/** The request as `requests` lists it. Internal: shared with the recorder. */
export function recordRequest(req: IncomingMessage, body: Buffer): RecordedRequest {
	const headers: Record<string, string> = {};
	const raw = req.rawHeaders;
	for (let i = 0; i + 1 < raw.length; i += 2) {
		const name = (raw[i] as string).toLowerCase();
		const value = raw[i + 1] as string;
		headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
	}
	const text = body.toString("utf8");
	let json: unknown;
	if (text.trim() !== "") {
		try {
			json = JSON.parse(text);
		} catch {
			json = undefined;
		}
	}
	return { method: req.method ?? "GET", path: req.url ?? "/", headers, body: text, json };
}

/** Resolves `true` once the chunk is handed to the OS, `false` if the response closed first. */
function writeChunk(res: ServerResponse, chunk: Uint8Array): Promise<boolean> {
	if (res.destroyed || res.writableEnded) return Promise.resolve(false);
	return new Promise((resolve) => {
		const onClose = () => resolve(false);
		res.once("close", onClose);
		res.write(chunk, (error) => {
			res.off("close", onClose);
			resolve(!error);
		});
	});
}

/** Resolves once everything written to the socket has left it (or the socket closed). */
function drained(socket: Socket): Promise<void> {
	if (socket.destroyed || socket.writableLength === 0) return Promise.resolve();
	return new Promise((resolve) => {
		const done = () => {
			socket.off("drain", done);
			socket.off("close", done);
			resolve();
		};
		socket.on("drain", done);
		socket.on("close", done);
	});
}

/** Waits `ms` (or one event-loop turn for 0); resolves early, without a timer left, when the server closes. */
function pause(ms: number, closing: AbortSignal): Promise<void> {
	return new Promise((resolve) => {
		if (closing.aborted) return resolve();
		const done = () => {
			closing.removeEventListener("abort", done);
			if (ms > 0) clearTimeout(timer);
			else clearImmediate(immediate);
			resolve();
		};
		closing.addEventListener("abort", done);
		const timer = ms > 0 ? setTimeout(done, ms) : undefined;
		const immediate = ms > 0 ? undefined : setImmediate(done);
	});
}

function validate(response: ScriptedResponse): void {
	const faults = (["resetBeforeHeaders", "stallBeforeHeaders", "resetAfterBytes", "stallAfterBytes", "truncateAfterBytes"] as const).filter(
		(key) => response[key] !== undefined && response[key] !== false,
	);
	if (faults.length > 1) throw new TypeError(`A scripted response may have one fault, got ${faults.join(" and ")}`);
	const status = response.status ?? 200;
	if (!Number.isInteger(status) || status < 200 || status > 599) throw new TypeError(`status must be an integer from 200 to 599, got ${status}`);
	const length = toBytes(response.body).length;
	for (const key of ["resetAfterBytes", "stallAfterBytes", "truncateAfterBytes"] as const) {
		const n = response[key];
		if (n === undefined) continue;
		if (!Number.isInteger(n) || n < 0 || n > length) throw new TypeError(`${key} must be an integer from 0 to the body length (${length}), got ${n}`);
	}
}

function toBytes(body: string | Uint8Array | undefined): Uint8Array {
	if (body === undefined) return new Uint8Array(0);
	return typeof body === "string" ? Buffer.from(body, "utf8") : body;
}

function ignore(): void {}

/** Loads `node:fs` and the cassette only when one is asked for, so plain servers stay cheap. */
async function loadCassette(cassette: string | CassetteOptions) {
	const { CassettePlayer } = await import("./cassette-player.js");
	return new CassettePlayer(typeof cassette === "string" ? { dir: cassette } : cassette);
}
