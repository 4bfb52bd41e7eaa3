import { delay } from "../http/retry-delay.js";
import type { Api, DeferredFetchOptions, DeferredHandle, JsonValue, Model } from "../types.js";

/*
 * A deferred reply's handle: checked, made and read here, and waited on by the polling rules
 * that every API shares (`pollJob`). One file, so that the scripted provider, which is part of
 * the main entry, and the lazily loaded providers share it without a chunk of its own.
 */

/**
 * Checks that `handle` is a usable {@link DeferredHandle} for `model`, with an error that names the
 * field at fault: a handle read back from a file or a database may be anything.
 */
export function assertDeferredHandle(model: Model<Api>, handle: unknown, where: string): asserts handle is DeferredHandle {
	if (typeof handle !== "object" || handle === null || Array.isArray(handle)) {
		throw new TypeError(`${where}: the handle must be an object (a message's \`deferred\`), got ${handle === null ? "null" : typeof handle}`);
	}
	const record = handle as Record<string, unknown>;
	for (const field of ["provider", "api", "modelId", "id"] as const) {
		if (typeof record[field] !== "string" || record[field] === "") {
			const hint = field === "modelId" && typeof record.model === "string" ? " (a handle of an older shape has `model`; rename it to `modelId`)" : "";
			throw new TypeError(`${where}: handle.${field} must be a non-empty string${hint}`);
		}
	}
	for (const field of ["expiresAt", "pollAfterMs"] as const) {
		const value = record[field];
		if (value !== undefined && (typeof value !== "number" || !Number.isFinite(value) || value < 0)) {
			throw new TypeError(`${where}: handle.${field} must be a non-negative number of milliseconds when given`);
		}
	}
	if (record.api !== model.api) {
		throw new TypeError(`${where}: the handle belongs to api "${String(record.api)}", but the model "${model.id}" speaks "${model.api}"`);
	}
}

/** `handle.data` as an object, or an empty one when it is absent or not an object. */
export function handleData(handle: DeferredHandle): Record<string, JsonValue> {
	const data = handle.data;
	return typeof data === "object" && data !== null && !Array.isArray(data) ? data : {};
}

/** A handle of `model` for job `id`; only the optional fields given are set. */
export function makeHandle(
	model: Model<Api>,
	id: string,
	extra: { expiresAt?: number; pollAfterMs?: number; data?: Record<string, JsonValue> } = {},
): DeferredHandle {
	const handle: DeferredHandle = { provider: model.provider, api: model.api, modelId: model.id, id };
	if (extra.expiresAt !== undefined && Number.isFinite(extra.expiresAt)) handle.expiresAt = extra.expiresAt;
	if (extra.pollAfterMs !== undefined) handle.pollAfterMs = extra.pollAfterMs;
	if (extra.data !== undefined) handle.data = extra.data;
	return handle;
}

/** Epoch milliseconds from an RFC 3339 time, or `undefined` when it does not parse. */
export function parseTime(value: unknown): number | undefined {
	if (typeof value !== "string" || value === "") return undefined;
	const time = Date.parse(value);
	return Number.isNaN(time) ? undefined : time;
}

/** The message of a reply whose job the provider forgot: its handle's `expiresAt` passed. */
export function expiredMessage(handle: DeferredHandle): string {
	const when = handle.expiresAt === undefined ? "" : ` at ${new Date(handle.expiresAt).toISOString()}`;
	return `The deferred reply ${handle.id} expired${when}: the provider no longer keeps its job, so it cannot be fetched.`;
}

/** The error for `deferred` on an API that cannot finish replies later. */
export function cannotDeferError(api: Api): Error {
	return new Error(
		`The "${api}" API cannot defer a reply (options.deferred): it has no background or batch mode here. Deferred replies work with openai-responses, anthropic-messages and google-generative-ai.`,
	);
}

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
