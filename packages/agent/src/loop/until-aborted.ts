/** What {@link untilAborted} settles with. */
export type Raced<T> = { aborted: false; value: T } | { aborted: true };

/**
 * Waits for `work`, or for `signal` to abort, whichever comes first, so that abort is prompt
 * even when a callback ignores its signal. A rejection of `work` rejects the result unless the
 * abort came first; a late rejection is absorbed (never unhandled).
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<Raced<T>> {
	if (signal.aborted) {
		work.catch(() => {});
		return Promise.resolve({ aborted: true });
	}
	return new Promise<Raced<T>>((resolve, reject) => {
		const onAbort = () => resolve({ aborted: true });
		signal.addEventListener("abort", onAbort, { once: true });
		work.then(
			(value) => {
				signal.removeEventListener("abort", onAbort);
				resolve({ aborted: false, value });
			},
			(error: unknown) => {
				signal.removeEventListener("abort", onAbort);
				reject(error);
			},
		);
	});
}
