/**
 * Serving a cassette: turns each incoming request into the recorded response that matches it,
 * paced as recorded or cut into random chunks, with faults layered on top.
 */
import { resolve } from "node:path";
import { CassetteMatcher, type IgnoredFields } from "./cassette-match.js";
import { environmentSecrets, isSecretRequestHeader, REDACTED, Redactor, SECRET_QUERY_PARAMETERS, secretsOfHeader } from "./cassette-secrets.js";
import { CassetteError, type CassetteRequest, type Interaction, readCassette } from "./cassette-store.js";
import type { RecordedRequest, ScriptedResponse } from "./replay-types.js";

/** The faults a {@link CassetteFault} can layer on a recorded response (same meaning as on a `ScriptedResponse`). */
export type FaultFields = Pick<ScriptedResponse, "resetBeforeHeaders" | "stallBeforeHeaders" | "resetAfterBytes" | "stallAfterBytes" | "truncateAfterBytes">;

/**
 * A fault layered on the recorded answer to one request.
 *
 * @example
 * ```ts
 * // The first request gets a 429; the retry (request 1) gets the recording, cut after 200 bytes.
 * faults: [{ request: 0, replaceWith: jsonResponse(429, { error: { message: "Slow down" } }, { "retry-after": "0" }) },
 *          { request: 1, resetAfterBytes: 200 }]
 * ```
 */
export interface CassetteFault extends FaultFields {
	/** Which request gets it: its arrival number from 0, as in the server's `requests`. */
	request: number;
	/**
	 * Answer with this instead of the recording (a 429, a 503 page). The recording is not used up:
	 * the next matching request (the retry) gets it.
	 */
	replaceWith?: ScriptedResponse;
}

/** How a cassette's bodies are paced when served. */
export interface CassetteTimingOptions {
	/**
	 * `random` (default): cut into seeded random chunks, like any scripted response (see
	 * `ReplayChunking`). `recorded`: the recorded chunk boundaries, with the recorded waits scaled
	 * by `timeScale`; a recording without timing falls back to `random`.
	 */
	timing?: "random" | "recorded";
	/** With `timing: "recorded"`: `1` real time (default), `0` same boundaries without waiting. */
	timeScale?: number;
}

/** Options of a cassette served by `startReplayServer({ cassette })`. A string is the folder. */
export interface CassetteOptions extends CassetteTimingOptions {
	/** The cassette folder (see docs/testing.md for its layout). */
	dir: string;
	/** Body fields left out when matching, e.g. `["metadata.user_id", "timestamp"]` (see {@link IgnoredFields}). */
	ignore?: IgnoredFields;
	/** Faults layered on top of the recorded answers. */
	faults?: readonly CassetteFault[];
	/** More values to redact from incoming requests, as when recording (keys from the environment are redacted anyway). */
	secrets?: readonly string[];
}

/** What a cassette-serving server exposes about its cassette. */
export interface CassetteState {
	/** The cassette folder, absolute. */
	readonly dir: string;
	/** Every interaction, in order (including those recorded during this session). */
	readonly interactions: readonly Interaction[];
	/** The error text of every request that matched nothing (or found its recording corrupt), in order. Empty when all matched. */
	readonly mismatches: readonly string[];
	/** The ids of the interactions not replayed yet. */
	unused(): string[];
}

/** Headers not worth keeping in a cassette: connection management, or values that change per run. */
const DROPPED_REQUEST_HEADERS = new Set(["host", "connection", "keep-alive", "content-length", "transfer-encoding", "accept-encoding", "accept-language", "sec-fetch-mode", "user-agent", "te", "upgrade"]);
/** Hop-by-hop response headers: they describe one connection, not the answer. */
export const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "proxy-connection", "te", "trailer", "upgrade"]);

/**
 * A request as a cassette stores it: the key headers, `key=` and every value in `secrets` (default:
 * the environment's keys) redacted, the query split off, the JSON body parsed.
 */
export function toCassetteRequest(
	method: string,
	target: string,
	headers: Record<string, string>,
	body: Buffer | string,
	secrets: readonly string[] = environmentSecrets(),
	/** `false` when the request is only matched: matching ignores headers, so skip them. */
	keepHeaders = true,
): { request: CassetteRequest; redactor: Redactor } {
	const all = [...secrets];
	for (const [name, value] of Object.entries(headers)) if (!DROPPED_REQUEST_HEADERS.has(name) && isSecretRequestHeader(name)) all.push(...secretsOfHeader(value));
	const url = new URL(target, "http://cassette.invalid");
	for (const [name, value] of url.searchParams) if (SECRET_QUERY_PARAMETERS.has(name.toLowerCase())) all.push(value);
	const redactor = new Redactor(all);

	const kept: Record<string, string> = {};
	for (const name of keepHeaders ? Object.keys(headers).sort() : []) {
		if (DROPPED_REQUEST_HEADERS.has(name)) continue;
		kept[name] = isSecretRequestHeader(name) ? REDACTED : redactor.text(headers[name] as string);
	}
	const request: CassetteRequest = { method: method.toUpperCase(), path: redactor.text(url.pathname), headers: kept };
	if (url.search) {
		request.query = {};
		for (const [name, value] of url.searchParams) request.query[name] = SECRET_QUERY_PARAMETERS.has(name.toLowerCase()) ? REDACTED : redactor.text(value);
	}
	const text = typeof body === "string" ? body : body.toString("utf8");
	if (text.trim() !== "") {
		try {
			request.body = redactor.json(JSON.parse(text));
		} catch {
			request.bodyText = redactor.text(text);
		}
	}
	return { request, redactor };
}

/** Matches requests against a cassette and builds the scripted response that replays each one. */
export class CassettePlayer implements CassetteState {
	readonly dir: string;
	readonly matcher: CassetteMatcher;
	readonly mismatches: string[] = [];
	private readonly faults: Map<number, CassetteFault>;
	/** The environment's keys and the user's secrets, read once: redacting each request must be cheap. */
	private readonly secrets: string[];

	constructor(
		readonly options: CassetteOptions,
		interactions: Interaction[] = readCassette(resolve(options.dir), { lazy: true }),
	) {
		this.dir = resolve(options.dir);
		this.matcher = new CassetteMatcher(interactions, options.ignore);
		this.secrets = [...environmentSecrets(), ...(options.secrets ?? [])];
		this.faults = new Map();
		for (const fault of options.faults ?? []) {
			if (!Number.isInteger(fault.request) || fault.request < 0) throw new TypeError(`a cassette fault needs "request": an arrival number ≥ 0, got ${String(fault.request)}`);
			if (this.faults.has(fault.request)) throw new TypeError(`two cassette faults for request ${fault.request}`);
			this.faults.set(fault.request, fault);
		}
	}

	get interactions(): readonly Interaction[] {
		return this.matcher.interactions;
	}

	unused(): string[] {
		return this.matcher.unused().map((interaction) => interaction.id);
	}

	/** The fault for request number `index`, if any. */
	faultFor(index: number): CassetteFault | undefined {
		return this.faults.get(index);
	}

	/**
	 * The response to request number `index`: the fault's replacement, else the matching recording
	 * (with the fault layered on), else a `404` whose JSON error explains the mismatch.
	 */
	answer(record: RecordedRequest, index: number): ScriptedResponse {
		return this.replay(record, index) ?? this.mismatch(this.explain(record));
	}

	/** Like {@link answer}, but `undefined` when no recording matches (nothing is reported). */
	replay(record: RecordedRequest, index: number): ScriptedResponse | undefined {
		const fault = this.faultFor(index);
		if (fault?.replaceWith) return fault.replaceWith;
		const { request } = toCassetteRequest(record.method, record.path, record.headers, record.body, this.secrets, false);
		const interaction = this.matcher.take(request);
		if (!interaction) return undefined;
		// A connection fault must not use the recording up: the retry should get it.
		if (fault && faultCutsShort(fault)) this.matcher.release(interaction);
		try {
			return replayResponse(interaction, this.options, fault);
		} catch (error) {
			// A body or timing file read lazily, now, turned out corrupt: say which, to the app too.
			if (!(error instanceof CassetteError)) throw error;
			this.mismatches.push(error.message);
			return { status: 422, headers: { "content-type": "application/json" }, body: JSON.stringify({ error: { type: "cassette_corrupt", message: error.message } }) };
		}
	}

	/** Why no recording matches `record`: the diff against the closest one (secrets redacted). */
	explain(record: RecordedRequest): string {
		const { request } = toCassetteRequest(record.method, record.path, record.headers, record.body, this.secrets);
		return this.matcher.explain(request, this.dir);
	}

	/** Records a mismatch and builds the response that reports it. */
	mismatch(message: string): ScriptedResponse {
		this.mismatches.push(message);
		return mismatchResponse(message);
	}
}

function faultCutsShort(fault: FaultFields): boolean {
	return fault.resetBeforeHeaders === true || fault.stallBeforeHeaders === true || fault.resetAfterBytes !== undefined || fault.stallAfterBytes !== undefined || fault.truncateAfterBytes !== undefined;
}

/**
 * The answer to a request the cassette has no recording for: `404 No Cassette Match`, not retried
 * by the HTTP seam, with the explanation as a provider-style JSON error so it reaches `errorMessage`.
 */
export function mismatchResponse(message: string): ScriptedResponse {
	return { status: 404, headers: { "content-type": "application/json" }, body: JSON.stringify({ error: { type: "cassette_mismatch", message } }) };
}

/** The scripted response that replays `interaction`, paced as `timing` says, with `fault` on top. */
export function replayResponse(interaction: Interaction, timing: CassetteTimingOptions, fault?: FaultFields): ScriptedResponse {
	const { response } = interaction;
	const headers: Record<string, string | string[]> = {};
	for (const [name, value] of Object.entries(response.headers)) {
		if (HOP_BY_HOP.has(name)) continue;
		// The body on disk may be shorter or longer than upstream's (redaction): say its own length.
		headers[name] = name === "content-length" ? String(response.body.length) : value;
	}
	const scripted: ScriptedResponse = { status: response.status, headers, body: response.body };
	if (timing.timing === "recorded" && response.chunks) {
		scripted.recordedTiming = { chunks: response.chunks, timeScale: timing.timeScale ?? 1 };
		if (response.headersAfterMs !== undefined) scripted.recordedTiming.headersAfterMs = response.headersAfterMs;
	}
	if (fault && faultCutsShort(fault)) {
		const { resetBeforeHeaders, stallBeforeHeaders, resetAfterBytes, stallAfterBytes, truncateAfterBytes } = fault;
		Object.assign(scripted, { resetBeforeHeaders, stallBeforeHeaders, resetAfterBytes, stallAfterBytes, truncateAfterBytes });
		for (const key of ["resetAfterBytes", "stallAfterBytes", "truncateAfterBytes"] as const) {
			const n = scripted[key];
			if (n !== undefined && (!Number.isInteger(n) || n < 0 || n > response.body.length)) {
				return { status: 422, headers: { "content-type": "application/json" }, body: JSON.stringify({ error: { type: "cassette_fault", message: `${key} must be an integer from 0 to the body length of ${interaction.id} (${response.body.length}), got ${n}` } }) };
			}
		}
		// A content-length would make the client expect the whole body; the fault sends less.
		delete headers["content-length"];
	} else if (response.ending === "reset") {
		scripted.resetAfterBytes = response.body.length;
		delete headers["content-length"];
	}
	return scripted;
}
