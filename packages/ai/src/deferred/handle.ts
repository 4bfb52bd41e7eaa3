import type { Api, DeferredHandle, JsonValue, Model } from "../types.js";

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
