/**
 * The recording proxy: a local HTTP server that forwards each request to the real provider,
 * streams the answer back unchanged as it arrives, and writes it to a cassette; or replays the
 * cassette, depending on the mode.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { IgnoredFields } from "./cassette-match.js";
import { type CassetteFault, CassettePlayer, type CassetteState, type CassetteTimingOptions, HOP_BY_HOP, mismatchResponse, toCassetteRequest } from "./cassette-player.js";
import { environmentSecrets, REDACTED, SECRET_HEADERS } from "./cassette-secrets.js";
import { clearCassette, type Interaction, interactionId, lastInteractionNumber, type RecordedChunk, readCassette, writeInteraction } from "./cassette-store.js";
import { listenOnLoopback } from "./loopback-listener.js";
import { recordRequest, respond } from "./replay-server.js";
import type { RecordedRequest, ReplayChunking } from "./replay-types.js";

/**
 * What the recorder does with a request.
 *
 * - `record`: always forward to the upstream, and replace the cassette with what this session records.
 * - `replay`: never call the upstream; a request with no recording fails with a diff.
 * - `auto` (default): replay what the cassette has, forward and record what it lacks.
 * - `passthrough`: forward everything, write nothing.
 */
export type CassetteMode = "record" | "replay" | "auto" | "passthrough";

const MODES: readonly CassetteMode[] = ["record", "replay", "auto", "passthrough"];

/** Options of {@link startRecorder}. */
export interface RecorderOptions extends CassetteTimingOptions {
	/**
	 * The real provider's URL, e.g. `https://api.anthropic.com`. Its path, if any, is put before
	 * each request's path. Needed by every mode but `replay`.
	 */
	upstream?: string;
	/** The cassette folder; created when the first interaction is written. */
	cassette: string;
	/** Default `auto`. The environment variable `PI_CASSETTE_MODE` overrides it. */
	mode?: CassetteMode;
	/** Body fields left out when matching (timestamps, ids); see `IgnoredFields`. */
	ignore?: IgnoredFields;
	/** More values to redact, besides the key headers, `key=` and the keys found in the environment. */
	secrets?: readonly string[];
	/** Faults layered on the replayed answers, by request arrival number (see `CassetteFault`). */
	faults?: readonly CassetteFault[];
	/** Write each response's chunk boundaries and timing (`timing.json`). Default `true`. */
	recordTiming?: boolean;
	/** Chunking of replayed bodies with `timing: "random"`. */
	chunking?: ReplayChunking;
}

/** A running recorder. Point the model's `baseUrl` at {@link url} (plus the path the API needs). */
export interface Recorder {
	/** `http://127.0.0.1:<port>`, no trailing slash. */
	readonly url: string;
	readonly port: number;
	/** The mode in effect (after `PI_CASSETTE_MODE`). */
	readonly mode: CassetteMode;
	/** The cassette: interactions, mismatches, recordings not replayed. */
	readonly cassette: CassetteState;
	/** Every request received, in order, as sent by the app (not redacted: they never leave memory). */
	readonly requests: readonly RecordedRequest[];
	/** How many interactions this session wrote to the cassette. */
	readonly recorded: number;
	/**
	 * Stops the server. Exchanges still streaming from the upstream get up to 5 s to finish and be
	 * written (the app may have its answer before the upstream's last byte reached the recorder);
	 * then every connection is destroyed. Resolves when closed. Idempotent.
	 */
	close(): Promise<void>;
}

/**
 * Starts a {@link Recorder} on `127.0.0.1`, on a free port.
 *
 * Forwarded responses go back to the app chunk by chunk as they arrive (no buffering), with the
 * upstream's status and headers. The request asks the upstream for an uncompressed body
 * (`accept-encoding: identity`) so that the cassette holds readable bytes. Secrets are redacted
 * before anything is written (see docs/testing.md, "Secrets").
 *
 * Throws a `TypeError` for an unknown mode or a missing upstream, and a `CassetteError` naming
 * the file when the cassette to replay is corrupt.
 *
 * @example
 * ```ts
 * const recorder = await startRecorder({ upstream: "https://api.anthropic.com", cassette: "test/__cassettes__/greeting" });
 * const reply = await complete({ ...model, baseUrl: recorder.url }, context, { apiKey });
 * await recorder.close();
 * ```
 */
export async function startRecorder(options: RecorderOptions): Promise<Recorder> {
	const mode = resolveMode(options.mode);
	const upstream = options.upstream === undefined ? undefined : parseUpstream(options.upstream);
	if (!upstream && (mode === "record" || mode === "passthrough")) throw new TypeError(`startRecorder: mode "${mode}" needs an upstream URL`);
	const replayTiming: CassetteTimingOptions = { timing: options.timing ?? "recorded", timeScale: options.timeScale ?? 0 };
	const playerOptions = { dir: options.cassette, ignore: options.ignore, faults: options.faults, secrets: options.secrets, ...replayTiming };
	// Recording from scratch must not fail on the cassette it is about to replace.
	const player = new CassettePlayer(playerOptions, mode === "replay" || mode === "auto" ? readCassette(options.cassette, { lazy: true }) : []);
	const dir = player.dir;
	let nextNumber = mode === "auto" ? lastInteractionNumber(dir) + 1 : 1;
	let cleared = mode !== "record";
	let recorded = 0;

	const { createServer } = await import("node:http");
	const transport = upstream?.protocol === "https:" ? await import("node:https") : await import("node:http");
	const requests: RecordedRequest[] = [];
	const closing = new AbortController();
	let closed: Promise<void> | undefined;
	const inFlight = new Set<Promise<void>>();

	const save = (interaction: Interaction): void => {
		if (!cleared) {
			clearCassette(dir);
			cleared = true;
		}
		writeInteraction(dir, interaction);
		player.matcher.add(interaction);
		recorded++;
	};

	const server = createServer((req, res) => {
		req.on("error", ignore);
		res.on("error", ignore);
		const parts: Buffer[] = [];
		req.on("data", (part: Buffer) => parts.push(part));
		req.on("end", () => {
			const index = requests.length;
			const body = Buffer.concat(parts);
			const record = recordRequest(req, body);
			requests.push(record);
			const replay = (response = player.answer(record, index)) => respond(req, res, response, { ...options.chunking }, closing.signal).catch(() => req.socket.destroy());
			if (mode === "replay") return void replay();
			if (mode === "auto") {
				const found = player.replay(record, index);
				if (found) return void replay(found);
				if (!upstream) return void replay(player.mismatch(`${player.explain(record)}\n(mode "auto" has no upstream to record it from)`));
			}
			const number = nextNumber++;
			const exchange = new Promise<void>((settle) => {
				// The environment's keys as of now: a key set mid-session is redacted from then on.
				const secrets = [...environmentSecrets(), ...(options.secrets ?? [])];
				forward(req, res, body, upstream as URL, transport.request, options, secrets, closing.signal, (interaction) => {
					if (interaction && mode !== "passthrough") save({ ...interaction, id: interactionId(number, interaction.request.method, interaction.request.path) });
					settle();
				});
			});
			inFlight.add(exchange);
			void exchange.then(() => inFlight.delete(exchange));
		});
	});
	const listener = await listenOnLoopback(server, "recorder");
	return {
		url: listener.url,
		port: listener.port,
		mode,
		cassette: player,
		requests,
		get recorded() {
			return recorded;
		},
		close() {
			closed ??= (async () => {
				const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
				if (inFlight.size > 0) {
					let timer: ReturnType<typeof setTimeout> | undefined;
					const grace = new Promise<void>((resolve) => {
						timer = setTimeout(resolve, 5_000);
					});
					await Promise.race([Promise.all(inFlight), grace]);
					clearTimeout(timer);
				}
				closing.abort();
				listener.destroySockets();
				await stopped;
			})();
			return closed;
		},
	};
}

/** The mode from `PI_CASSETTE_MODE` when set, else `mode`, else `auto`; throws for an unknown one. */
export function resolveMode(mode: CassetteMode | undefined, env: Record<string, string | undefined> = process.env): CassetteMode {
	const fromEnv = env.PI_CASSETTE_MODE?.trim();
	const chosen = fromEnv ? fromEnv : (mode ?? "auto");
	if (!MODES.includes(chosen as CassetteMode)) {
		const where = fromEnv ? "PI_CASSETTE_MODE" : "the mode option";
		throw new TypeError(`${where} is "${chosen}"; expected one of ${MODES.join(", ")}`);
	}
	return chosen as CassetteMode;
}

function parseUpstream(upstream: string): URL {
	let url: URL;
	try {
		url = new URL(upstream);
	} catch (error) {
		throw new TypeError(`startRecorder: upstream must be an absolute http(s) URL, got ${JSON.stringify(upstream)}`, { cause: error });
	}
	if (url.protocol !== "http:" && url.protocol !== "https:") throw new TypeError(`startRecorder: upstream must be http or https, got ${url.protocol}`);
	return url;
}

/** Request headers that belong to the hop to the recorder, not to the upstream. */
const NOT_FORWARDED = new Set(["host", "connection", "keep-alive", "content-length", "transfer-encoding", "accept-encoding", "proxy-connection", "te", "upgrade"]);

type RequestFunction = typeof import("node:http").request;

/**
 * Forwards one request and pipes the answer back as it arrives, timing each chunk; calls `done`
 * with the interaction (secrets redacted) when the upstream finished or reset, or with nothing
 * when there is nothing faithful to save (no answer, or the recorder closed mid-answer). An app
 * that leaves early does not stop the recording: the upstream is read to its end.
 */
function forward(
	req: IncomingMessage,
	res: ServerResponse,
	body: Buffer,
	upstream: URL,
	request: RequestFunction,
	options: RecorderOptions,
	secrets: readonly string[],
	closing: AbortSignal,
	done: (interaction?: Omit<Interaction, "id">) => void,
): void {
	const headers: Record<string, string | string[]> = {};
	for (const [name, value] of Object.entries(req.headers)) if (value !== undefined && !NOT_FORWARDED.has(name)) headers[name] = value;
	headers["accept-encoding"] = "identity";
	headers["content-length"] = String(body.length);
	const prefix = upstream.pathname.replace(/\/+$/, "");
	const started = performance.now();
	const outgoing = request({ protocol: upstream.protocol, hostname: upstream.hostname, port: upstream.port, method: req.method, path: `${prefix}${req.url ?? "/"}`, headers });
	const abort = () => outgoing.destroy();
	closing.addEventListener("abort", abort, { once: true });
	let settled = false;
	const finish = (interaction?: Omit<Interaction, "id">) => {
		if (settled) return;
		settled = true;
		closing.removeEventListener("abort", abort);
		done(interaction);
	};

	outgoing.on("error", (error: NodeJS.ErrnoException) => {
		if (res.headersSent || closing.aborted || res.destroyed) {
			if (!res.headersSent) res.destroy();
			finish();
			return;
		}
		finish();
		const { redactor } = requestRecord(req, body, secrets);
		const detail = redactor.text(`${error.code ? `${error.code}: ` : ""}${error.message}`);
		const message = `recorder: the upstream ${upstream.origin} could not be reached for ${req.method} ${redactor.text(req.url ?? "/")} (${detail})`;
		const text = JSON.stringify({ error: { type: "cassette_upstream_error", message } });
		res.writeHead(502, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
		res.end(text);
	});
	outgoing.on("response", (incoming) => {
		const headersAfterMs = round(performance.now() - started);
		const responseHeaders = forwardableHeaders(incoming.headers);
		res.writeHead(incoming.statusCode ?? 502, incoming.statusMessage, responseHeaders);
		res.flushHeaders();
		const parts: Buffer[] = [];
		const chunks: RecordedChunk[] = [];
		let last = performance.now();
		let ended = false;
		incoming.on("data", (chunk: Buffer) => {
			const now = performance.now();
			chunks.push([chunk.length, round(now - last)]);
			last = now;
			parts.push(chunk);
			if (res.destroyed) return; // the app left: keep reading, so the recording is whole
			// Unbuffered, but with back-pressure: a slow app slows the upstream read, not memory.
			if (!res.write(chunk)) {
				incoming.pause();
				const resume = () => {
					res.off("drain", resume);
					res.off("close", resume);
					incoming.resume();
				};
				res.on("drain", resume);
				res.on("close", resume);
			}
		});
		incoming.on("end", () => {
			ended = true;
			res.end();
		});
		incoming.on("error", ignore);
		incoming.on("close", () => {
			if (!ended) res.destroy();
			if (closing.aborted) return finish();
			const { request: cassetteRequest, redactor } = requestRecord(req, body, secrets);
			const redacted = redactor.bytes(Buffer.concat(parts), options.recordTiming === false ? undefined : chunks);
			const savedHeaders: Record<string, string | string[]> = {};
			for (const [name, value] of Object.entries(responseHeaders)) {
				savedHeaders[name] = SECRET_HEADERS.has(name) ? REDACTED : Array.isArray(value) ? value.map((item) => redactor.text(item)) : redactor.text(value);
			}
			const response: Interaction["response"] = { status: incoming.statusCode ?? 502, headers: savedHeaders, body: redacted.body, ending: ended ? "complete" : "reset" };
			if (redacted.chunks) {
				response.headersAfterMs = headersAfterMs;
				response.chunks = redacted.chunks;
			}
			finish({ request: cassetteRequest, response });
		});
	});
	outgoing.end(body);
}

function requestRecord(req: IncomingMessage, body: Buffer, secrets: readonly string[]) {
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
	return toCassetteRequest(req.method ?? "GET", req.url ?? "/", headers, body, secrets);
}

function forwardableHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
	const out: Record<string, string | string[]> = {};
	for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
	return out;
}

/** Milliseconds to a tenth: finer is noise, and keeps timing.json short. */
function round(ms: number): number {
	return Math.max(0, Math.round(ms * 10) / 10);
}

function ignore(): void {}
