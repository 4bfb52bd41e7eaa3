/**
 * Routes for the replay server: script a whole endpoint family (submit a job, poll it, stream or
 * read its result, cancel it) instead of one queue of answers. Each route is a method and a path
 * pattern; its answers may change from call to call, as a job progresses.
 */
import type { RecordedRequest, ScriptedResponse } from "./replay-types.js";

/** A request that a route answered, with what its pattern captured. */
export interface RouteRequest extends RecordedRequest {
	/** The values of the pattern's `{name}` segments (or the RegExp's named groups), URL-decoded. */
	params: Record<string, string>;
	/** The query string, parsed. */
	query: URLSearchParams;
	/** How many earlier requests this route answered: 0 for its first. */
	call: number;
	/** Epoch milliseconds when the request arrived. */
	receivedAt: number;
}

/**
 * How a route answers:
 * - one response, for every call;
 * - a list: call `k` gets item `k`, and the last item answers every call after it (a job that
 *   stays finished);
 * - a function of the request (sync or async), for answers that depend on it (`starting_after`).
 */
export type RouteResponder =
	| ScriptedResponse
	| readonly ScriptedResponse[]
	| ((request: RouteRequest) => ScriptedResponse | Promise<ScriptedResponse>);

/** One route: `method` (case-insensitive, `*` for any) and a path pattern over the path without its query. */
export interface ReplayRoute {
	method: string;
	/**
	 * `/v1/responses/{id}` matches `/v1/responses/resp_1` with `params.id = "resp_1"`; a `{name}`
	 * matches one segment up to the next `/` or `:` (Gemini's `batches/{id}:cancel`). A RegExp is
	 * matched against the whole path; its named groups become `params`.
	 */
	path: string | RegExp;
	respond: RouteResponder;
}

/** A route once added: the requests it answered so far (a live array). */
export interface RouteHandle {
	readonly route: ReplayRoute;
	readonly requests: readonly RouteRequest[];
	/** Stops the route from answering; later requests go to the next route or the queue. */
	remove(): void;
}

/** The routes of one server, in the order they were added (the first match answers). */
export class RouteTable {
	private readonly entries: { route: ReplayRoute; matcher: RegExp; requests: RouteRequest[]; removed: boolean }[] = [];

	add(route: ReplayRoute): RouteHandle {
		if (!route || typeof route.method !== "string" || route.method === "") throw new TypeError("a route needs a method, e.g. \"GET\" or \"*\"");
		if (typeof route.path !== "string" && !(route.path instanceof RegExp)) throw new TypeError("a route's path must be a pattern string or a RegExp");
		if (route.respond === undefined || route.respond === null) throw new TypeError(`route ${route.method} ${String(route.path)} has no responder`);
		const entry = { route, matcher: toMatcher(route.path), requests: [] as RouteRequest[], removed: false };
		this.entries.push(entry);
		return {
			route,
			requests: entry.requests,
			remove: () => {
				entry.removed = true;
			},
		};
	}

	clear(): void {
		this.entries.length = 0;
	}

	/** The scripted answer of the first route matching `request`, or `undefined` when none does. */
	answer(request: RecordedRequest): Promise<ScriptedResponse> | undefined {
		const [pathname = "/", search = ""] = splitPath(request.path);
		for (const entry of this.entries) {
			if (entry.removed) continue;
			const method = entry.route.method.toUpperCase();
			if (method !== "*" && method !== request.method) continue;
			const match = entry.matcher.exec(pathname);
			if (!match) continue;
			const params: Record<string, string> = {};
			for (const [name, value] of Object.entries(match.groups ?? {})) if (value !== undefined) params[name] = safeDecode(value);
			const routed: RouteRequest = { ...request, params, query: new URLSearchParams(search), call: entry.requests.length, receivedAt: Date.now() };
			entry.requests.push(routed);
			// A responder that throws must become a 500, not an exception in the server.
			return Promise.resolve().then(() => pick(entry.route.respond, routed));
		}
		return undefined;
	}
}

function pick(respond: RouteResponder, request: RouteRequest): ScriptedResponse | Promise<ScriptedResponse> {
	if (typeof respond === "function") return respond(request);
	if (Array.isArray(respond)) {
		if (respond.length === 0) throw new TypeError("a route's list of responses is empty");
		return respond[Math.min(request.call, respond.length - 1)] as ScriptedResponse;
	}
	return respond as ScriptedResponse;
}

function toMatcher(path: string | RegExp): RegExp {
	if (path instanceof RegExp) return new RegExp(`^(?:${path.source})$`, path.flags.replace("g", ""));
	let source = "";
	let last = 0;
	for (const match of path.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) {
		source += escape(path.slice(last, match.index)) + `(?<${match[1]}>[^/:]+)`;
		last = (match.index ?? 0) + match[0].length;
	}
	source += escape(path.slice(last));
	return new RegExp(`^${source}$`);
}

function escape(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function splitPath(path: string): [string, string] {
	const at = path.indexOf("?");
	return at < 0 ? [path, ""] : [path.slice(0, at), path.slice(at + 1)];
}

function safeDecode(value: string): string {
	try {
		return decodeURIComponent(value);
	} catch {
		return value;
	}
}
