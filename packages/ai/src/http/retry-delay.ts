/**
 * How long the server asks the client to wait, in milliseconds: `retry-after-ms` (OpenAI,
 * Azure) wins over `retry-after`, which is either seconds or an HTTP date (RFC 9110 §10.2.3).
 * Returns `undefined` when neither header is usable.
 */
export function parseRetryAfter(headers: Headers, now = Date.now()): number | undefined {
	const milliseconds = headers.get("retry-after-ms");
	if (milliseconds !== null) {
		const value = Number(milliseconds);
		if (Number.isFinite(value) && value >= 0) return value;
	}
	const retryAfter = headers.get("retry-after");
	if (retryAfter === null || retryAfter.trim() === "") return undefined;
	const seconds = Number(retryAfter);
	if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
	const date = Date.parse(retryAfter);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, date - now);
}

/**
 * Exponential backoff with full jitter for retry `attempt` (1-based): a random delay between
 * half and all of `baseMs * 2^(attempt-1)`, capped at `capMs`.
 */
export function backoffDelay(attempt: number, baseMs = 500, capMs = 8_000, random = Math.random): number {
	const ceiling = Math.min(capMs, baseMs * 2 ** (attempt - 1));
	return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/**
 * Resolves after `ms`, or rejects with the signal's reason as soon as it aborts.
 * Leaves no timer or listener behind either way.
 */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
	return new Promise((resolve, reject) => {
		if (signal?.aborted) {
			reject(signal.reason);
			return;
		}
		const onAbort = () => {
			clearTimeout(timer);
			reject(signal?.reason);
		};
		const timer = setTimeout(() => {
			signal?.removeEventListener("abort", onAbort);
			resolve();
		}, ms);
		signal?.addEventListener("abort", onAbort, { once: true });
	});
}
