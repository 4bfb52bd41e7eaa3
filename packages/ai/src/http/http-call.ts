import { ApiCallError } from "./api-call-error.js";
import { toApiCallError, waitBeforeRetry, withRetryCount } from "./http-failure.js";
import { DEFAULT_MAX_RETRIES, DEFAULT_MAX_RETRY_DELAY_MS, type HttpRequest } from "./request-options.js";

/**
 * One call of the seam across its attempts: the caller's signal with `timeoutMs` folded in, the
 * retry policy, and the body serialized once. Both readers of the seam (event streams and whole
 * bodies) run their attempts inside one, so that they retry, time out and abort alike.
 */
export interface HttpCall {
	/** Aborts on the caller's abort (with its reason) and when `timeoutMs` passes (with a timeout error). */
	readonly signal: AbortSignal | undefined;
	/** The JSON body, or `undefined` for a `GET` or a request without one. */
	readonly body: string | undefined;
	/**
	 * After attempt number `attempt` (from 0) failed with `error`: resolves when it is worth another
	 * attempt (after the backoff or the server's `retry-after`), else throws what ends the call:
	 * the signal's reason once it aborted, or the failure as an `ApiCallError`. `final` marks a
	 * failure that must not be retried (the stream had already yielded, a status the caller
	 * treats as an answer).
	 */
	retryAfter(error: unknown, attempt: number, final?: (failure: ApiCallError) => boolean): Promise<void>;
	/** Clears the timeout. Call once, when the call is over. */
	end(): void;
}

/** Starts a call of the seam for `request`. */
export function startCall(request: HttpRequest): HttpCall {
	const secrets = request.secrets ?? [];
	const deadline = callDeadline(request);
	const signal = deadline ? (request.signal ? AbortSignal.any([request.signal, deadline.signal]) : deadline.signal) : request.signal;
	const policy = {
		signal,
		maxRetries: Math.max(0, request.maxRetries ?? DEFAULT_MAX_RETRIES),
		maxRetryDelayMs: request.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS,
		onRetry: request.onRetry,
		secrets,
	};
	return {
		signal,
		body: request.method === "GET" || request.body === undefined ? undefined : JSON.stringify(request.body),
		async retryAfter(error, attempt, final) {
			if (signal?.aborted) throw signal.reason ?? error;
			const failure = toApiCallError(error, request.url, secrets);
			if (final?.(failure)) throw attempt > 0 ? withRetryCount(failure, attempt, secrets) : failure;
			await waitBeforeRetry(failure, attempt, policy);
		},
		end: () => deadline?.clear(),
	};
}

/** A controller that aborts with a timeout error when `timeoutMs` passes, or `undefined` without one. */
function callDeadline(request: HttpRequest): { signal: AbortSignal; clear(): void } | undefined {
	const timeoutMs = request.timeoutMs;
	if (timeoutMs === undefined || !(timeoutMs > 0) || !Number.isFinite(timeoutMs)) return undefined;
	const controller = new AbortController();
	const timer = setTimeout(() => {
		const message = `The request did not finish within timeoutMs (${timeoutMs} ms); it was cancelled.`;
		controller.abort(new ApiCallError(message, { url: request.url, isRetryable: false }));
	}, timeoutMs);
	// A deadline must not keep a process alive that has nothing else to do.
	(timer as { unref?: () => void }).unref?.();
	return { signal: controller.signal, clear: () => clearTimeout(timer) };
}
