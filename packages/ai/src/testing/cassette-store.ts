/**
 * The cassette on disk: one folder per recorded interaction, each holding plain files a human can
 * read and diff. Reading validates every file and names the one that is wrong.
 *
 * ```
 * my-cassette/
 *   001-post-v1-messages/
 *     request.json        method, path, query, the headers that matter, the JSON body
 *     response.json       status, headers, the body's file name, how the stream ended
 *     response-body.sse   the body bytes exactly as received (after secret redaction)
 *     timing.json         optional: the chunks as they arrived, [bytes, ms since the previous one]
 * ```
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The request half of an interaction, as `request.json` holds it. */
export interface CassetteRequest {
	/** Upper-case method, e.g. `POST`. */
	method: string;
	/** The path without the query, e.g. `/v1/messages`. */
	path: string;
	/** Query parameters in the order sent; secrets (`key=`) redacted. Absent when there is none. */
	query?: Record<string, string>;
	/** The headers that describe the request (lower-case names; secrets redacted; hop-by-hop ones dropped). */
	headers: Record<string, string>;
	/** The body parsed as JSON; absent when the body is empty or not JSON (then see `bodyText`). */
	body?: unknown;
	/** A body that is not JSON, as UTF-8 text. */
	bodyText?: string;
}

/** One chunk of a recorded response body: its size and the milliseconds since the previous chunk (or the headers). */
export type RecordedChunk = readonly [bytes: number, afterMs: number];

/** How a recorded response ended: normally, or with the upstream resetting the connection mid-body. */
export type ResponseEnding = "complete" | "reset";

/** The response half of an interaction. */
export interface CassetteResponse {
	status: number;
	/** Response headers as received (lower-case names; hop-by-hop ones dropped; secrets redacted). */
	headers: Record<string, string | string[]>;
	/** The body bytes. */
	body: Buffer;
	/** `reset` when the upstream broke the connection after `body`. Default `complete`. */
	ending: ResponseEnding;
	/** Milliseconds from sending the request to the response headers, when timing was recorded. */
	headersAfterMs?: number;
	/** The chunks as they arrived; their sizes add up to the body length. Absent when not recorded. */
	chunks?: readonly RecordedChunk[];
}

/** One recorded request and its response. */
export interface Interaction {
	/** The folder name, e.g. `001-post-v1-messages`; interactions sort by it. */
	id: string;
	request: CassetteRequest;
	response: CassetteResponse;
}

/** A cassette file that is missing, not JSON, or not of the expected shape. `file` is its absolute path. */
export class CassetteError extends Error {
	override readonly name = "CassetteError";
	constructor(
		readonly file: string,
		detail: string,
		options?: { cause?: unknown },
	) {
		super(`Corrupt cassette file ${file}: ${detail}`, options);
	}
}

/** An interaction folder: a number, a dash, then anything (`001-post-v1-messages`). */
const INTERACTION_FOLDER = /^(\d+)-/;

/** Options of {@link readCassette}. */
export interface ReadCassetteOptions {
	/**
	 * Read only the requests now, and each response (`response.json`, body, timing) when first
	 * used, so that a server replaying a few interactions of a large cassette does not read them
	 * all. A corrupt response file then throws its {@link CassetteError} at that first use.
	 * Default `false`: everything is read and checked now.
	 */
	lazy?: boolean;
}

/**
 * Every interaction of the cassette at `dir`, in folder-name order; none when the folder does not
 * exist. Other entries (a README, a `.gitignore`) are ignored. Throws a {@link CassetteError}
 * naming the file when one is missing, is not valid JSON, or has the wrong shape.
 */
export function readCassette(dir: string, options: ReadCassetteOptions = {}): Interaction[] {
	let names: string[];
	try {
		names = readdirSync(dir, { withFileTypes: true })
			.filter((entry) => entry.isDirectory() && INTERACTION_FOLDER.test(entry.name))
			.map((entry) => entry.name)
			.sort(byNumberThenName);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
		throw error;
	}
	return names.map((id) => readInteraction(dir, id, options.lazy === true));
}

function readInteraction(dir: string, id: string, lazy: boolean): Interaction {
	const folder = join(dir, id);
	const requestFile = join(folder, "request.json");
	const request = readJson(requestFile) as Record<string, unknown>;
	need(requestFile, isRecord(request), "expected a JSON object");
	need(requestFile, typeof request.method === "string" && request.method !== "", `"method" must be a non-empty string`);
	need(requestFile, typeof request.path === "string" && request.path.startsWith("/"), `"path" must be a string starting with "/"`);
	need(requestFile, request.query === undefined || isStringRecord(request.query), `"query" must be an object of strings`);
	need(requestFile, request.headers === undefined || isStringRecord(request.headers), `"headers" must be an object of strings`);
	need(requestFile, request.bodyText === undefined || typeof request.bodyText === "string", `"bodyText" must be a string`);

	const responseFile = join(folder, "response.json");
	const meta = once(() => {
		const value = readJson(responseFile) as Record<string, unknown>;
		need(responseFile, isRecord(value), "expected a JSON object");
		need(responseFile, Number.isInteger(value.status) && (value.status as number) >= 100 && (value.status as number) <= 599, `"status" must be an integer from 100 to 599`);
		need(responseFile, value.headers === undefined || isHeaderRecord(value.headers), `"headers" must be an object of strings or string arrays`);
		need(responseFile, typeof value.bodyFile === "string" && /^[\w.-]+$/.test(value.bodyFile), `"bodyFile" must name a file in the same folder`);
		need(responseFile, value.ending === undefined || value.ending === "complete" || value.ending === "reset", `"ending" must be "complete" or "reset"`);
		return value;
	});
	const body = once(() => {
		const bodyPath = join(folder, meta().bodyFile as string);
		try {
			return readFileSync(bodyPath);
		} catch (error) {
			throw new CassetteError(bodyPath, "cannot read the response body", { cause: error });
		}
	});
	const timing = once(() => readTiming(join(folder, "timing.json"), meta().bodyFile as string, body().length));
	let response: CassetteResponse;
	if (lazy) {
		// Only the request is needed to match; the response is read when it is first served.
		response = new LazyResponse(meta, body, timing);
	} else {
		response = { status: meta().status as number, headers: (meta().headers ?? {}) as Record<string, string | string[]>, ending: (meta().ending ?? "complete") as ResponseEnding, body: body() };
		const { chunks, headersAfterMs } = timing();
		if (chunks) response.chunks = chunks;
		if (headersAfterMs !== undefined) response.headersAfterMs = headersAfterMs;
	}
	const cassetteRequest: CassetteRequest = { method: request.method as string, path: request.path as string, headers: (request.headers ?? {}) as Record<string, string> };
	if (request.query !== undefined) cassetteRequest.query = request.query as Record<string, string>;
	if ("body" in request) cassetteRequest.body = request.body;
	if (request.bodyText !== undefined) cassetteRequest.bodyText = request.bodyText as string;
	return { id, request: cassetteRequest, response };
}

/** A response whose files are read on first use (getters on the prototype: cheap to create). */
class LazyResponse implements CassetteResponse {
	constructor(
		private readonly meta: () => Record<string, unknown>,
		private readonly loadBody: () => Buffer,
		private readonly timing: () => { chunks?: RecordedChunk[]; headersAfterMs?: number },
	) {}
	get status(): number {
		return this.meta().status as number;
	}
	get headers(): Record<string, string | string[]> {
		return (this.meta().headers ?? {}) as Record<string, string | string[]>;
	}
	get ending(): ResponseEnding {
		return (this.meta().ending ?? "complete") as ResponseEnding;
	}
	get body(): Buffer {
		return this.loadBody();
	}
	get chunks(): readonly RecordedChunk[] | undefined {
		return this.timing().chunks;
	}
	get headersAfterMs(): number | undefined {
		return this.timing().headersAfterMs;
	}
}

/** The optional `timing.json`: its chunks must add up to the body's `bodyLength` bytes. */
function readTiming(timingFile: string, bodyFile: string, bodyLength: number): { chunks?: RecordedChunk[]; headersAfterMs?: number } {
	let text: string;
	try {
		text = readFileSync(timingFile, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
		throw new CassetteError(timingFile, "cannot read the file", { cause: error });
	}
	const timing = parseJson(timingFile, text) as Record<string, unknown>;
	need(timingFile, isRecord(timing) && Array.isArray(timing.chunks), `expected {"headersAfterMs": n, "chunks": [[bytes, ms], …]}`);
	const chunks = timing.chunks as unknown[];
	let total = 0;
	chunks.forEach((chunk, index) => {
		const ok = Array.isArray(chunk) && chunk.length === 2 && Number.isInteger(chunk[0]) && chunk[0] > 0 && typeof chunk[1] === "number" && chunk[1] >= 0;
		need(timingFile, ok, `chunks[${index}] must be [bytes > 0, milliseconds ≥ 0], got ${JSON.stringify(chunk)}`);
		total += (chunk as [number, number])[0];
	});
	need(timingFile, total === bodyLength, `the chunks add up to ${total} bytes but ${bodyFile} has ${bodyLength}`);
	return { chunks: chunks as RecordedChunk[], headersAfterMs: typeof timing.headersAfterMs === "number" ? timing.headersAfterMs : undefined };
}

function once<T>(load: () => T): () => T {
	let done = false;
	let value: T;
	return () => {
		if (!done) {
			value = load();
			done = true;
		}
		return value;
	};
}

/**
 * Writes one interaction as its folder under `dir` (created as needed), replacing a folder of the
 * same id. JSON is pretty-printed, and timing gets one chunk per line, so that diffs stay readable.
 */
export function writeInteraction(dir: string, interaction: Interaction): void {
	const folder = join(dir, interaction.id);
	rmSync(folder, { recursive: true, force: true });
	mkdirSync(folder, { recursive: true });
	const { request, response } = interaction;
	writeFileSync(join(folder, "request.json"), `${JSON.stringify(request, null, 2)}\n`);
	const bodyFile = `response-body.${extensionFor(response.headers["content-type"])}`;
	const meta: Record<string, unknown> = { status: response.status, headers: response.headers, bodyFile };
	if (response.ending !== "complete") meta.ending = response.ending;
	writeFileSync(join(folder, "response.json"), `${JSON.stringify(meta, null, 2)}\n`);
	writeFileSync(join(folder, bodyFile), response.body);
	if (response.chunks) {
		const lines = response.chunks.map((chunk) => `    ${JSON.stringify(chunk)}`).join(",\n");
		const head = response.headersAfterMs === undefined ? "" : `  "headersAfterMs": ${response.headersAfterMs},\n`;
		writeFileSync(join(folder, "timing.json"), `{\n${head}  "chunks": [\n${lines}\n  ]\n}\n`);
	}
}

/** Removes every interaction folder of the cassette at `dir`, leaving other files alone. */
export function clearCassette(dir: string): void {
	for (const interaction of readdirSafe(dir)) {
		if (INTERACTION_FOLDER.test(interaction)) rmSync(join(dir, interaction), { recursive: true, force: true });
	}
}

/** The folder name for the interaction numbered `number`: `001-post-v1-messages`. */
export function interactionId(number: number, method: string, path: string): string {
	const slug = path
		.split("?")[0]
		?.toLowerCase()
		.replace(/[^a-z0-9]+/g, "-")
		.replace(/^-+|-+$/g, "")
		.slice(0, 60);
	return `${String(number).padStart(3, "0")}-${method.toLowerCase()}${slug ? `-${slug}` : ""}`;
}

/** The highest interaction number in use under `dir`, 0 when none. */
export function lastInteractionNumber(dir: string): number {
	let last = 0;
	for (const name of readdirSafe(dir)) {
		const match = INTERACTION_FOLDER.exec(name);
		if (match) last = Math.max(last, Number(match[1]));
	}
	return last;
}

function readdirSafe(dir: string): string[] {
	try {
		return readdirSync(dir);
	} catch {
		return [];
	}
}

function extensionFor(contentType: string | string[] | undefined): string {
	const type = (Array.isArray(contentType) ? contentType[0] : contentType)?.toLowerCase() ?? "";
	if (type.includes("event-stream")) return "sse";
	if (type.includes("json")) return "json";
	if (type.includes("html")) return "html";
	return "txt";
}

function readJson(file: string): unknown {
	let text: string;
	try {
		text = readFileSync(file, "utf8");
	} catch (error) {
		throw new CassetteError(file, "cannot read the file", { cause: error });
	}
	return parseJson(file, text);
}

function parseJson(file: string, text: string): unknown {
	try {
		return JSON.parse(text);
	} catch (error) {
		throw new CassetteError(file, `not valid JSON (${(error as Error).message})`, { cause: error });
	}
}

function need(file: string, condition: boolean, detail: string): asserts condition {
	if (!condition) throw new CassetteError(file, detail);
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isStringRecord(value: unknown): boolean {
	return isRecord(value) && Object.values(value).every((entry) => typeof entry === "string");
}

function isHeaderRecord(value: unknown): boolean {
	return isRecord(value) && Object.values(value).every((entry) => typeof entry === "string" || (Array.isArray(entry) && entry.every((item) => typeof item === "string")));
}

function byNumberThenName(a: string, b: string): number {
	const difference = Number(INTERACTION_FOLDER.exec(a)?.[1]) - Number(INTERACTION_FOLDER.exec(b)?.[1]);
	return difference !== 0 ? difference : a < b ? -1 : a > b ? 1 : 0;
}
