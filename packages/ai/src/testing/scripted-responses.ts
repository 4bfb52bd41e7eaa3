import type { ScriptedResponse } from "./replay-types.js";

type HeaderMap = ScriptedResponse["headers"];
/** Everything of a {@link ScriptedResponse} but its body and status: extra headers, a fault, chunking. */
export type ResponseExtras = Omit<ScriptedResponse, "body" | "status">;

/**
 * A `200 text/event-stream` response carrying `body`, e.g. the bytes of a recorded capture.
 *
 * @example
 * ```ts
 * server.enqueue(sseResponse("data: {\"ok\":true}\n\n", { truncateAfterBytes: 10 }));
 * ```
 */
export function sseResponse(body: string | Uint8Array, extras: ResponseExtras = {}): ScriptedResponse {
	return { ...extras, status: 200, body, headers: { "content-type": "text/event-stream", "cache-control": "no-cache", ...extras.headers } };
}

/**
 * A response with a JSON body, as providers send their errors.
 *
 * @example
 * ```ts
 * jsonResponse(429, { error: { type: "rate_limit_error", message: "Too many requests" } }, { "retry-after": "2" });
 * ```
 */
export function jsonResponse(status: number, value: unknown, headers: HeaderMap = {}): ScriptedResponse {
	return { status, body: JSON.stringify(value), headers: { "content-type": "application/json", ...headers } };
}

/** A response with a plain-text body, e.g. `textResponse(503, "upstream connect error")`. */
export function textResponse(status: number, text: string, headers: HeaderMap = {}): ScriptedResponse {
	return { status, body: text, headers: { "content-type": "text/plain; charset=utf-8", ...headers } };
}

/**
 * An HTML error page like those of a proxy or load balancer in front of an API (a gateway
 * timeout, a Cloudflare 502): what a client gets when the error is not the provider's JSON.
 *
 * @example
 * ```ts
 * server.enqueue(htmlError(502), sseResponse(bytes)); // a retryable failure, then success
 * ```
 */
export function htmlError(status: number, headers: HeaderMap = {}): ScriptedResponse {
	const title = `${status} ${STATUS_TEXT[status] ?? "Error"}`;
	const body = `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
	return { status, body, headers: { "content-type": "text/html", ...headers } };
}

// Kept here rather than read from node:http's STATUS_CODES so that building a response never loads node:http.
const STATUS_TEXT: Record<number, string> = {
	400: "Bad Request",
	401: "Unauthorized",
	403: "Forbidden",
	404: "Not Found",
	408: "Request Timeout",
	409: "Conflict",
	413: "Payload Too Large",
	429: "Too Many Requests",
	500: "Internal Server Error",
	502: "Bad Gateway",
	503: "Service Unavailable",
	504: "Gateway Time-out",
	529: "Site Overloaded",
};
