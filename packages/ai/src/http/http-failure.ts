import type { RetryInfo } from "../types.js";
import { redactSecrets } from "../utils/redact.js";
import { ApiCallError, IdleTimeoutError, isRetryableStatus } from "./api-call-error.js";
import { extractErrorMessage } from "./error-body.js";
import { backoffDelay, delay, parseRetryAfter } from "./retry-delay.js";

/**
 * The failure handling shared by every request of the HTTP seam (event streams and JSON calls
 * alike): turning a failed answer or a broken connection into an {@link ApiCallError}, and the
 * one retry policy.
 */

/** What {@link waitBeforeRetry} needs of a request. */
export interface RetryPolicy {
	signal?: AbortSignal;
	maxRetries: number;
	maxRetryDelayMs: number;
	onRetry?: (info: RetryInfo) => void;
	secrets: readonly (string | undefined)[];
}

/**
 * After failed attempt number `attempt` (from 0): throws when the failure is not worth a retry
 * (not retryable, retries used up, or the server asks to wait longer than `maxRetryDelayMs`),
 * else tells `onRetry` and waits the backoff (or the server's `retry-after`), honouring the signal.
 */
export async function waitBeforeRetry(failure: ApiCallError, attempt: number, policy: RetryPolicy): Promise<void> {
	const { secrets, maxRetryDelayMs } = policy;
	if (!failure.isRetryable || attempt >= policy.maxRetries) {
		throw attempt > 0 ? withRetryCount(failure, attempt, secrets) : failure;
	}
	const asked = failure.retryAfterMs;
	if (asked !== undefined && maxRetryDelayMs > 0 && asked > maxRetryDelayMs) {
		throw new ApiCallError(
			`${failure.message} The server asked to retry after ${formatDuration(asked)}, longer than maxRetryDelayMs (${formatDuration(maxRetryDelayMs)}); not retrying.`,
			{ url: failure.url, status: failure.status, retryAfterMs: asked, providerMessage: failure.providerMessage, cause: failure },
		);
	}
	const waitMs = asked ?? backoffDelay(attempt + 1);
	try {
		policy.onRetry?.({ attempt: attempt + 1, delayMs: waitMs, status: failure.status, reason: failure.message });
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		throw new Error(redactSecrets(`The onRetry callback failed: ${reason}`, secrets), { cause: error });
	}
	await delay(waitMs, policy.signal);
}

/** Reads a body as text, calling `onBytes` on every chunk (to keep an idle timer alive); stops at 1 MB. */
export async function readText(response: Response, onBytes: () => void): Promise<string> {
	if (!response.body) return "";
	const reader = response.body.getReader();
	const decoder = new TextDecoder();
	let text = "";
	for (;;) {
		const chunk = await reader.read();
		if (chunk.done) return text + decoder.decode();
		onBytes();
		text += decoder.decode(chunk.value, { stream: true });
		if (text.length > 1_000_000) {
			reader.cancel().catch(() => {});
			return text;
		}
	}
}

/** The {@link ApiCallError} of a non-2xx answer (or a 2xx that is not an event stream), naming the status and the provider's message. */
export function httpError(response: Response, text: string, url: string, secrets: readonly (string | undefined)[]): ApiCallError {
	const providerMessage = extractErrorMessage(text, secrets);
	const status = response.status;
	const label = response.ok
		? `HTTP ${status}: expected an event stream, got ${response.headers.get("content-type") || "no content type"}`
		: `HTTP ${status}${response.statusText && response.statusText !== "unknown" ? ` ${response.statusText}` : ""}`;
	const message = redactSecrets(providerMessage ? `${label}: ${providerMessage}` : label, secrets);
	return new ApiCallError(message, {
		url,
		status,
		isRetryable: !response.ok && isRetryableStatus(status),
		retryAfterMs: parseRetryAfter(response.headers),
		providerMessage: providerMessage === undefined ? undefined : redactSecrets(providerMessage, secrets),
	});
}

/** Any failure of an attempt as an {@link ApiCallError}: network errors and idle timeouts are retryable. */
export function toApiCallError(error: unknown, url: string, secrets: readonly (string | undefined)[]): ApiCallError {
	if (error instanceof ApiCallError) return error;
	if (error instanceof IdleTimeoutError) return new ApiCallError(error.message, { url, isRetryable: true, cause: error });
	const cause = error instanceof Error ? (error as Error & { cause?: unknown }).cause : undefined;
	const detail = cause instanceof Error ? ` (${cause.message})` : "";
	const base = error instanceof Error ? error.message : String(error);
	return new ApiCallError(redactSecrets(`Network error: ${base}${detail}`, secrets), {
		url,
		isRetryable: true,
		cause: error,
	});
}

/** `error`, its message saying how many retries came before it. */
export function withRetryCount(error: ApiCallError, retries: number, secrets: readonly (string | undefined)[]): ApiCallError {
	return new ApiCallError(redactSecrets(`${error.message} (after ${retries} ${retries === 1 ? "retry" : "retries"})`, secrets), {
		url: error.url,
		status: error.status,
		isRetryable: error.isRetryable,
		retryAfterMs: error.retryAfterMs,
		providerMessage: error.providerMessage,
		cause: error,
	});
}

/** `850 ms`, `2.5 s`. */
export function formatDuration(ms: number): string {
	return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}
