/**
 * A failed provider call: an HTTP error status, a connection failure, an idle timeout or an
 * error body where a stream was expected. Its message names the status and the provider's own
 * message, and never contains an API key.
 */
export class ApiCallError extends Error {
	override readonly name = "ApiCallError";
	/** HTTP status, when the server answered. */
	readonly status: number | undefined;
	/** The request URL (API keys never go into URLs in this package). */
	readonly url: string;
	/** Worth retrying: network errors, 408, 409, 429, 5xx and 529. */
	readonly isRetryable: boolean;
	/** How long the server asked to wait, from `retry-after-ms` / `retry-after`. */
	readonly retryAfterMs: number | undefined;
	/** The provider's error message, as extracted from the body. */
	readonly providerMessage: string | undefined;

	constructor(
		message: string,
		options: {
			url: string;
			status?: number;
			isRetryable?: boolean;
			retryAfterMs?: number;
			providerMessage?: string;
			cause?: unknown;
		},
	) {
		super(message, options.cause === undefined ? undefined : { cause: options.cause });
		this.url = options.url;
		this.status = options.status;
		this.isRetryable = options.isRetryable ?? false;
		this.retryAfterMs = options.retryAfterMs;
		this.providerMessage = options.providerMessage;
	}
}

/** No bytes arrived for `idleTimeoutMs`. */
export class IdleTimeoutError extends Error {
	override readonly name = "IdleTimeoutError";
	constructor(readonly idleTimeoutMs: number) {
		super(`No data received for ${idleTimeoutMs} ms (idle timeout); the connection was closed.`);
	}
}

/** Statuses that are worth retrying. */
export function isRetryableStatus(status: number): boolean {
	return status === 408 || status === 409 || status === 429 || status >= 500;
}
