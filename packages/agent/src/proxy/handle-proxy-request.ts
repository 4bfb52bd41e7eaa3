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
	type AssistantMessageEventSource,
	type Context,
	getEnvApiKey,
	getModel,
	type Model,
	type SimpleStreamOptions,
	streamSimple,
} from "@pi/ai";
import { toProxyEvent } from "./proxy-events.js";
import type { ProxyRequestBody } from "./stream-proxy.js";

export interface ProxyServerOptions {
	/**
	 * Whether the caller may use the proxy: told the bearer token (`undefined` when none was sent)
	 * and the request. Return `false` to answer 401.
	 */
	authorize: (token: string | undefined, request: Request) => boolean | Promise<boolean>;
	/**
	 * The model to call for the one the client asked for, or `undefined` to refuse it (403).
	 * Default: the catalog model with the same `provider` and `id` (`getModel`).
	 */
	resolveModel?: (requested: Pick<Model<Api>, "provider" | "id"> & Partial<Model<Api>>, request: Request) => Model<Api> | undefined | Promise<Model<Api> | undefined>;
	/** The provider key for a model. Default: `getEnvApiKey(model.provider)`. */
	getApiKey?: (model: Model<Api>) => string | undefined | Promise<string | undefined>;
	/** Makes the call. Default `streamSimple` from `@pi/ai`. */
	streamFn?: (model: Model<Api>, context: Context, options: SimpleStreamOptions) => AssistantMessageEventSource;
	/** Largest request body accepted, in bytes. Default 10 MiB (transcripts with images are large). */
	maxBodyBytes?: number;
}

const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

/** The stream options a client may set; anything else in `options` is ignored. */
const CLIENT_OPTIONS = ["temperature", "maxTokens", "reasoning", "cacheRetention", "sessionId", "metadata", "thinkingBudgets", "maxRetryDelayMs", "output"] as const;

/**
 * Answers one proxy request: 405 for anything but POST, 401 when `authorize` refuses, 413 for a
 * body over `maxBodyBytes`, 400 for a body that is not `{ model, context, options }` (the message
 * names the field), 403 for a model `resolveModel` refuses; else 200 with an SSE stream of
 * proxy events ending with `done` or `error`. Error answers are JSON `{ "error": "…" }`, which
 * `streamProxy` shows as `Proxy error: …`-style messages. Aborting `request.signal` or cancelling
 * the response body aborts the model call.
 *
 * Client `headers` are not forwarded to the provider (they could override auth); set them in
 * `resolveModel` instead.
 *
 * @example
 * // Deno / Bun / Workers
 * export default {
 *   fetch: (request: Request) =>
 *     handleProxyRequest(request, { authorize: (token) => token === process.env.APP_TOKEN }),
 * };
 */
export async function handleProxyRequest(request: Request, options: ProxyServerOptions): Promise<Response> {
	if (typeof options?.authorize !== "function") {
		throw new TypeError("handleProxyRequest: options.authorize is required (a proxy open to anyone spends your provider key)");
	}
	if (request.method !== "POST") return errorResponse(405, `Method ${request.method} is not allowed; POST the request to /api/stream.`, { Allow: "POST" });
	const token = bearerToken(request.headers.get("authorization"));
	if (!(await options.authorize(token, request))) return errorResponse(401, "Unauthorized: send Authorization: Bearer <app token>.");

	const text = await readBody(request, options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
	if (text === undefined) return errorResponse(413, `The request body is larger than ${options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES} bytes.`);
	const parsed = parseBody(text);
	if (typeof parsed === "string") return errorResponse(400, parsed);

	const requested = parsed.model;
	const model = await (options.resolveModel ?? defaultResolveModel)(requested, request);
	if (!model) return errorResponse(403, `Model "${requested.provider}/${requested.id}" is not available through this proxy.`);

	const callOptions: SimpleStreamOptions = {};
	for (const key of CLIENT_OPTIONS) {
		const value = parsed.options[key];
		if (value !== undefined) (callOptions as Record<string, unknown>)[key] = value;
	}
	const apiKey = await (options.getApiKey ?? ((m: Model<Api>) => getEnvApiKey(m.provider)))(model);
	if (apiKey !== undefined) callOptions.apiKey = apiKey;

	const controller = new AbortController();
	const onAbort = () => controller.abort(request.signal.reason);
	if (request.signal.aborted) controller.abort(request.signal.reason);
	else request.signal.addEventListener("abort", onAbort, { once: true });
	callOptions.signal = controller.signal;

	const events = (options.streamFn ?? streamSimple)(model, parsed.context, callOptions);
	const iterator = events[Symbol.asyncIterator]();
	const encoder = new TextEncoder();
	const body = new ReadableStream<Uint8Array>({
		async pull(stream) {
			try {
				const next = await iterator.next();
				if (next.done) {
					request.signal.removeEventListener("abort", onAbort);
					stream.close();
					return;
				}
				stream.enqueue(encoder.encode(`data: ${JSON.stringify(toProxyEvent(next.value))}\n\n`));
				if (next.value.type === "done" || next.value.type === "error") {
					request.signal.removeEventListener("abort", onAbort);
					stream.close();
				}
			} catch (error) {
				// A stream function that broke its contract: still end with a proper error event.
				const message = error instanceof Error ? error.message : String(error);
				const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
				stream.enqueue(encoder.encode(`data: ${JSON.stringify({ type: "error", reason: "error", errorMessage: redact(message, apiKey), usage })}\n\n`));
				stream.close();
			}
		},
		cancel(reason) {
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

function redact(text: string, secret: string | undefined): string {
	return secret ? text.split(secret).join("[redacted]") : text;
}

/** The body as text, or `undefined` when it passes `limit` bytes (read no further than that). */
async function readBody(request: Request, limit: number): Promise<string | undefined> {
	const declared = Number(request.headers.get("content-length"));
	if (Number.isFinite(declared) && declared > limit) return undefined;
	if (!request.body) return "";
	const reader = request.body.getReader();
	const chunks: Uint8Array[] = [];
	let size = 0;
	while (true) {
		const { done, value } = await reader.read();
		if (done) break;
		size += value.byteLength;
		if (size > limit) {
			await reader.cancel();
			return undefined;
		}
		chunks.push(value);
	}
	const bytes = new Uint8Array(size);
	let offset = 0;
	for (const chunk of chunks) {
		bytes.set(chunk, offset);
		offset += chunk.byteLength;
	}
	return new TextDecoder().decode(bytes);
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
