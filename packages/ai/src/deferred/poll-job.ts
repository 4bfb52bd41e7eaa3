import { delay } from "../http/retry-delay.js";
import type { DeferredFetchOptions, DeferredHandle } from "../types.js";
import { expiredMessage } from "./handle.js";

/** Wait between status checks when neither the handle nor the options say. */
export const DEFAULT_POLL_INTERVAL_MS = 2_000;

/** What one status check found. */
export type JobCheck<T> = { done: true; value: T } | { done: false; pollAfterMs?: number };

/** How polling ended: the job's result, or still running when the wait was over. */
export type PollOutcome<T> = { kind: "done"; value: T } | { kind: "waiting"; pollAfterMs?: number };

/** The job's handle expired (its `expiresAt` passed) before it ended. */
export class DeferredExpiredError extends Error {
	override readonly name = "DeferredExpiredError";
	constructor(readonly handle: DeferredHandle) {
		super(expiredMessage(handle));
	}
}

/**
 * How long the caller is willing to wait, from `maxWaitMs` (or the reference's `wait`): an epoch
 * deadline, or `Infinity` for no limit. `fallbackMs` is the default when neither is given.
 */
export function waitDeadline(options: DeferredFetchOptions | undefined, fallbackMs: number, now = Date.now()): number {
	const ms = options?.maxWaitMs ?? options?.wait ?? fallbackMs;
	if (!Number.isFinite(ms)) return Number.POSITIVE_INFINITY;
	return now + Math.max(0, ms);
}

/**
 * Checks a job until it ends, honouring the rules every deferred API shares:
 *
 * - the first check is made at once; between checks it waits the job's own `pollAfterMs` (as the
 *   last check reported it), else the handle's, else `options.pollIntervalMs`, else 2 s;
 * - when the next check would fall after `deadline`, it stops and reports `waiting` (the caller
 *   ends the reply `deferred` again with a fresh handle); a deadline of now makes one check;
 * - when the handle's `expiresAt` has passed, before a check, it throws {@link DeferredExpiredError};
 * - aborting `signal` rejects at once, also during a wait.
 */
export async function pollJob<T>(
	handle: DeferredHandle,
	options: DeferredFetchOptions | undefined,
	deadline: number,
	check: () => Promise<JobCheck<T>>,
): Promise<PollOutcome<T>> {
	const signal = options?.signal;
	for (;;) {
		if (signal?.aborted) throw signal.reason;
		if (handle.expiresAt !== undefined && Date.now() >= handle.expiresAt) throw new DeferredExpiredError(handle);
		const result = await check();
		if (result.done) return { kind: "done", value: result.value };
		const waitMs = Math.max(0, result.pollAfterMs ?? handle.pollAfterMs ?? options?.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS);
		if (Date.now() + waitMs > deadline) return { kind: "waiting", pollAfterMs: result.pollAfterMs };
		await delay(waitMs, signal);
	}
}
