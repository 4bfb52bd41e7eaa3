import type { Api, DeferredCancelOptions, DeferredFetchOptions, Model, ProviderResponse, RetryInfo, StreamOptions } from "../types.js";

/** Defaults shared by every request of the seam; documented in docs/http.md. */
export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_MAX_RETRY_DELAY_MS = 60_000;
export const DEFAULT_IDLE_TIMEOUT_MS = 300_000;

/**
 * One request of the HTTP seam, whatever its answer is read as (an event stream, JSON, text): a
 * streamed reply, a deferred submission, a status check, a results download, a cancel. Every
 * field but `url` and `headers` has the same meaning and default for all of them.
 */
export interface HttpRequest {
	url: string;
	headers: Record<string, string>;
	/** Default `POST`. A `GET` sends no body. */
	method?: "GET" | "POST";
	/** Serialized as JSON when given; ignored for a `GET`. */
	body?: unknown;
	/** Aborting it rejects promptly with the signal's reason. */
	signal?: AbortSignal;
	/** Retries of network errors, 408, 409, 429, 5xx. Default {@link DEFAULT_MAX_RETRIES}. */
	maxRetries?: number;
	/** Give up when the server asks to wait longer. Default {@link DEFAULT_MAX_RETRY_DELAY_MS}; 0 = no cap. */
	maxRetryDelayMs?: number;
	/** Fail when no bytes arrive for this long; 0 disables. Default {@link DEFAULT_IDLE_TIMEOUT_MS}. */
	idleTimeoutMs?: number;
	/**
	 * A deadline for the whole request, retries included: when it passes, the request is cancelled
	 * and rejects with an `ApiCallError` naming `timeoutMs` (not the caller's abort). No default.
	 */
	timeoutMs?: number;
	onRetry?: (info: RetryInfo) => void;
	/**
	 * Told each attempt's status and headers before its body is read. A throw (or rejection) ends
	 * the request with an error naming the callback; it is never retried.
	 */
	onResponse?: (response: ProviderResponse) => void | Promise<void>;
	/** Strings (API keys) scrubbed from every error message. */
	secrets?: readonly (string | undefined)[];
}

/**
 * The fields of a request that come from a caller's options rather than from the provider:
 * those of {@link HttpRequest}, and the bound on one server-sent event (read by event streams only).
 */
export type TransportOptions = Pick<HttpRequest, "signal" | "maxRetries" | "maxRetryDelayMs" | "idleTimeoutMs" | "timeoutMs" | "onRetry" | "onResponse"> & {
	maxEventBytes?: number;
};

/**
 * The transport options of a caller's options (stream, deferred-fetch and cancel options alike),
 * as every request of the seam takes them; the one place where they become request options. `onResponse` is told about each attempt
 * with `model`. Providers spread it into each request they send.
 *
 * @example
 * postEventStreamBatches({ url, headers, body, ...transportOptions(options, model), secrets: [apiKey] });
 */
export function transportOptions(options: StreamOptions | DeferredFetchOptions | DeferredCancelOptions | undefined, model?: Model<Api>): TransportOptions {
	const onResponse = options?.onResponse;
	return {
		signal: options?.signal,
		maxRetries: options?.maxRetries,
		maxRetryDelayMs: options?.maxRetryDelayMs,
		idleTimeoutMs: options?.idleTimeoutMs,
		timeoutMs: options?.timeoutMs,
		onRetry: options?.onRetry,
		onResponse: onResponse && model ? (response) => onResponse(response, model) : undefined,
		// Only stream options bound an event; a resumed stream of a deferred reply keeps the default.
		maxEventBytes: options && "maxEventBytes" in options ? options.maxEventBytes : undefined,
	};
}
