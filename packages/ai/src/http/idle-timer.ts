/** A restartable timeout: the idle timeout of one HTTP attempt. */
export interface IdleTimer {
	/** Starts the countdown again from the full duration. */
	refresh(): void;
	/** Stops it for good. */
	clear(): void;
}

/**
 * Calls `onIdle` once `ms` milliseconds pass without a `refresh()`. Works in every runtime:
 * Node's timer handle has `refresh()`, but a browser's or a worker's `setTimeout` returns a
 * number, so the portable path clears and re-arms the timeout instead.
 *
 * @example
 * ```ts
 * const timer = startIdleTimer(30_000, () => controller.abort());
 * for await (const chunk of body) timer.refresh();
 * timer.clear();
 * ```
 */
export function startIdleTimer(ms: number, onIdle: () => void): IdleTimer {
	let handle: ReturnType<typeof setTimeout> | undefined = setTimeout(onIdle, ms);
	return {
		refresh() {
			if (handle === undefined) return;
			const nodeHandle = handle as { refresh?: () => unknown };
			if (typeof nodeHandle.refresh === "function") nodeHandle.refresh();
			else {
				clearTimeout(handle);
				handle = setTimeout(onIdle, ms);
			}
		},
		clear() {
			if (handle !== undefined) clearTimeout(handle);
			handle = undefined;
		},
	};
}
