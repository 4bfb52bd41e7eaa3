/**
 * The server half of `streamProxy`: takes the request a browser's `streamProxy` sent, makes the
 * model call with the server's own provider key, and streams the events back in the proxy wire
 * format. Standard `Request` in, `Response` out, so it mounts in any server that speaks them
 * (Node through a small adapter, Deno, Bun, Cloudflare Workers, Hono, Next.js route handlers).
 *
 * What it guards, since the request comes from a browser:
 * - `authorize` decides who may call (required: a proxy open to anyone spends your key);
 * - the client's `model` object is not trusted: by default the catalog's model of the same
 *   provider and id is used (its `baseUrl` and headers, not the client's), and unknown models are
 *   refused, so a client cannot send your key to a server of its choosing;
 * - the key comes from `getApiKey` (default: the environment), never from the request, and
 *   never appears in a response.
 */
import {
	type Api,
	type AssistantMessage,
	type AssistantMessageEventSource,
	type Context,
	getEnvApiKey,
	getModel,
	type Model,
	type SimpleStreamOptions,
	type StopReason,
	streamSimple,
} from "@pi/ai";
import { jsonDepthExcess } from "./json-depth.js";
import { applyProxyLimits, type ProxyLimits } from "./proxy-limits.js";
import { proxyReplyBody } from "./proxy-reply-body.js";
import { readRequestBody } from "./read-request-body.js";
import type { ProxyRequestBody } from "./stream-proxy.js";

/** What {@link ProxyServerOptions.onUsage} is told about each finished call. */
export interface ProxyCallUsage {
	/** The model that was called (the server's, after `resolveModel`). */
	model: Model<Api>;
	/** The client's bearer token, as `authorize` saw it. */
	token: string | undefined;
	request: Request;
	/** Tokens and cost (`usage.cost.total`, in dollars) of the call, as far as it went. */
	usage: AssistantMessage["usage"];
	/** How it ended: `aborted` when the client left midway (what was used until then is counted). */
	stopReason: StopReason;
}

export interface ProxyServerOptions {
	/**
	 * Whether the caller may use the proxy: told the bearer token (`undefined` when none was sent)
	 * and the request. Return `false` to answer 401. Compare tokens in constant time
	 * (`crypto.timingSafeEqual`), not with `===`.
	 */
	authorize: (token: string | undefined, request: Request) => boolean | Promise<boolean>;
	/**
	 * The model to call for the one the client asked for, or `undefined` to refuse it (403).
	 * Default: the catalog model with the same `provider` and `id` (`getModel`).
	 */
	resolveModel?: (requested: Pick<Model<Api>, "provider" | "id"> & Partial<Model<Api>>, request: Request) => Model<Api> | undefined | Promise<Model<Api> | undefined>;
	/**
	 * The models clients may use, as `"provider/id"` strings or a predicate over the resolved
	 * model; any other answers 403. Default: every model `resolveModel` gives, which by default is
	 * every catalog model whose key the server has (hundreds; some cost $600 per million tokens).
	 */
	allowModels?: readonly string[] | ((model: Model<Api>) => boolean);
	/** Caps on each call's output tokens, reasoning level and cache retention. Default: none. */
	limits?: ProxyLimits;
	/**
	 * Told the usage and cost of each call once it ended (also when the client left midway): the
	 * place for per-user budgets and rate limits. Awaited by nothing; a throw goes to `onError`.
	 */
	onUsage?: (call: ProxyCallUsage) => void | Promise<void>;
	/**
	 * Told about a hook (`authorize`, `resolveModel`, `getApiKey`, `onUsage`) that threw. The client
	 * gets a 500 `{ "error": … }` naming the hook, never the error itself.
	 */
	onError?: (error: unknown, request: Request) => void;
	/** The provider key for a model. Default: `getEnvApiKey(model.provider)`. */
	getApiKey?: (model: Model<Api>) => string | undefined | Promise<string | undefined>;
	/** Makes the call. Default `streamSimple` from `@pi/ai`. */
	streamFn?: (model: Model<Api>, context: Context, options: SimpleStreamOptions) => AssistantMessageEventSource;
	/** Largest request body accepted, in bytes. Default 10 MiB (transcripts with images are large). */
	maxBodyBytes?: number;
	/** Deepest nesting of `{`/`[` accepted in the body, checked before it is parsed. Default {@link DEFAULT_MAX_BODY_DEPTH}. */
	maxBodyDepth?: number;
}

const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;
/**
 * The default nesting bound of a request body: a transcript nests about 8 levels above a tool
 * call's arguments, and `@pi/ai` caps those at 256 levels.
 */
export const DEFAULT_MAX_BODY_DEPTH = 512;

/** The stream options a client may set; anything else in `options` is ignored. */
const CLIENT_OPTIONS = ["temperature", "maxTokens", "reasoning", "cacheRetention", "sessionId", "metadata", "thinkingBudgets", "maxRetryDelayMs", "output"] as const;

/** A hook of the operator's that threw: a 500 naming the hook. */
class HookError extends Error {
	constructor(
		readonly hook: string,
		readonly original: unknown,
	) {
		super(`The proxy's ${hook} hook failed.`);
	}
}

async function callHook<T>(hook: string, run: () => T | Promise<T>): Promise<T> {
	try {
		return await run();
	} catch (error) {
		throw new HookError(hook, error);
	}
}

/**
 * Answers one proxy request: 405 for anything but POST, 401 when `authorize` refuses, 413 for a
 * body over `maxBodyBytes` (with `connection: close`: its rest is not read), 400 for a body
 * that is not `{ model, context, options }`, nests deeper than `maxBodyDepth`, was cut off by
 * the client, or asks over a `limits` cap with `exceed: "refuse"` (the message names the
 * field), 403 for a model `resolveModel` or `allowModels` refuses, 500 naming the hook when
 * one of the operator's hooks throws; else 200 with an SSE stream of proxy events ending with
 * `done` or `error`. Error answers are JSON `{ "error": "…" }`, which `streamProxy` shows as
 * `Proxy error: …`-style messages. Aborting `request.signal` or cancelling the response body
 * aborts the model call. It never rejects once `options` is valid.
 *
 * Client `headers` are not forwarded to the provider (they could override auth); set them in
 * `resolveModel` instead.
 *
 * @example
 * // Deno / Bun / Workers; on Node: createServer(toNodeHandler((request) => handleProxyRequest(request, options)))
 * export default {
 *   fetch: (request: Request) =>
 *     handleProxyRequest(request, { authorize: (token) => token === process.env.APP_TOKEN, allowModels: ["openai/gpt-4o-mini"], limits: { maxTokens: 4096 } }),
 * };
 */
export async function handleProxyRequest(request: Request, options: ProxyServerOptions): Promise<Response> {
	if (typeof options?.authorize !== "function") {
		throw new TypeError("handleProxyRequest: options.authorize is required (a proxy open to anyone spends your provider key)");
	}
	try {
		return await handle(request, options);
	} catch (error) {
		const hook = error instanceof HookError ? error : undefined;
		tellError(options, hook ? hook.original : error, request);
		return errorResponse(500, hook ? hook.message : "The proxy server failed to handle the request.");
	}
}

async function handle(request: Request, options: ProxyServerOptions): Promise<Response> {
	if (request.method !== "POST") return errorResponse(405, `Method ${request.method} is not allowed; POST the request to /api/stream.`, { Allow: "POST" });
	const token = bearerToken(request.headers.get("authorization"));
	if (!(await callHook("authorize", () => options.authorize(token, request)))) {
		// The body is not read: close the connection rather than leave it in the way of the next request.
		return errorResponse(401, "Unauthorized: send Authorization: Bearer <app token>.", { connection: "close" });
	}

	const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
	const text = await readRequestBody(request, maxBodyBytes);
	if (text === "too-large") return errorResponse(413, `The request body is larger than ${maxBodyBytes} bytes.`, { connection: "close" });
	if (text === "broken") return errorResponse(400, "The request body ended before its declared length (the client dropped it).", { connection: "close" });
	const maxBodyDepth = options.maxBodyDepth ?? DEFAULT_MAX_BODY_DEPTH;
	const deep = jsonDepthExcess(text, maxBodyDepth);
	if (deep !== undefined) return errorResponse(400, `The request body nests deeper than ${maxBodyDepth} levels (at character ${deep}).`);
	const parsed = parseBody(text);
	if (typeof parsed === "string") return errorResponse(400, parsed);

	const requested = parsed.model;
	const model = await callHook("resolveModel", () => (options.resolveModel ?? defaultResolveModel)(requested, request));
	if (!model || !(await callHook("allowModels", () => isAllowed(model, options.allowModels)))) {
		return errorResponse(403, `Model "${requested.provider}/${requested.id}" is not available through this proxy.`);
	}

	const callOptions: SimpleStreamOptions = {};
	for (const key of CLIENT_OPTIONS) {
		const value = parsed.options[key];
		if (value !== undefined) (callOptions as Record<string, unknown>)[key] = value;
	}
	const refused = applyProxyLimits(callOptions, options.limits, model.maxTokens);
	if (refused) return errorResponse(400, refused);
	const apiKey = await callHook("getApiKey", () => (options.getApiKey ?? ((m: Model<Api>) => getEnvApiKey(m.provider)))(model));
	if (apiKey !== undefined) callOptions.apiKey = apiKey;

	const controller = new AbortController();
	const onAbort = () => controller.abort(request.signal.reason);
	if (request.signal.aborted) controller.abort(request.signal.reason);
	else request.signal.addEventListener("abort", onAbort, { once: true });
	callOptions.signal = controller.signal;

	let reported = false;
	const report = (usage: AssistantMessage["usage"], stopReason: StopReason) => {
		if (reported || !options.onUsage) return;
		reported = true;
		const onUsage = options.onUsage;
		void callHook("onUsage", () => onUsage({ model, token, request, usage, stopReason })).catch((error: HookError) => tellError(options, error.original, request));
	};
	const events = await callHook("streamFn", () => (options.streamFn ?? streamSimple)(model, parsed.context, callOptions));
	const body = proxyReplyBody(events, {
		report,
		secret: apiKey,
		onEnd: () => request.signal.removeEventListener("abort", onAbort),
		onCancel: (reason) => {
			// The client went away: stop the model call, which stops spending tokens.
			controller.abort(reason ?? new Error("The proxy client disconnected."));
			request.signal.removeEventListener("abort", onAbort);
		},
	});
	return new Response(body, {
		status: 200,
		headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", "x-accel-buffering": "no" },
	});
}

function isAllowed(model: Model<Api>, allow: ProxyServerOptions["allowModels"]): boolean {
	if (allow === undefined) return true;
	if (typeof allow === "function") return allow(model) === true;
	return allow.includes(`${model.provider}/${model.id}`);
}

function tellError(options: ProxyServerOptions, error: unknown, request: Request): void {
	try {
		options.onError?.(error, request);
	} catch {
		// The error reporter itself failed: there is nowhere left to report to.
	}
}

function defaultResolveModel(requested: { provider: string; id: string }): Model<Api> | undefined {
	return getModel(requested.provider, requested.id);
}

function bearerToken(header: string | null): string | undefined {
	const match = header ? /^Bearer\s+(.+)$/i.exec(header.trim()) : null;
	return match?.[1];
}

function errorResponse(status: number, error: string, headers: Record<string, string> = {}): Response {
	return new Response(JSON.stringify({ error }), { status, headers: { "content-type": "application/json", ...headers } });
}

type ParsedBody = { model: Pick<Model<Api>, "provider" | "id"> & Partial<Model<Api>>; context: Context; options: Partial<Record<(typeof CLIENT_OPTIONS)[number], unknown>> };

/** The checked body, or a message naming what is wrong and where. */
function parseBody(text: string): ParsedBody | string {
	let body: unknown;
	try {
		body = JSON.parse(text);
	} catch {
		return "The request body is not JSON: expected { model, context, options }.";
	}
	if (!isRecord(body)) return "The request body must be an object { model, context, options }.";
	const { model, context, options } = body as Partial<ProxyRequestBody> & Record<string, unknown>;
	if (!isRecord(model) || typeof model.provider !== "string" || typeof model.id !== "string") {
		return "body.model must be an object with string `provider` and `id`.";
	}
	if (!isRecord(context) || !Array.isArray(context.messages)) return "body.context must be an object with a `messages` array.";
	const bad = context.messages.findIndex((message) => !isRecord(message) || !["user", "assistant", "toolResult"].includes(String(message.role)));
	if (bad !== -1) return `body.context.messages[${bad}] must be a message with role "user", "assistant" or "toolResult".`;
	if (context.systemPrompt !== undefined && typeof context.systemPrompt !== "string") return "body.context.systemPrompt must be a string.";
	if (context.tools !== undefined && !Array.isArray(context.tools)) return "body.context.tools must be an array.";
	if (options !== undefined && !isRecord(options)) return "body.options must be an object.";
	return { model: model as ParsedBody["model"], context: context as Context, options: (options ?? {}) as ParsedBody["options"] };
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}
