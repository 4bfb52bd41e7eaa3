import type { Api, StreamOptions } from "../types.js";

/**
 * How long an API whose deferred replies are polled (its batch mode) takes at most to finish a
 * request, as it documents it: Anthropic ends a Message Batch still processing after 24 hours
 * (its requests then come back `expired`), and 24 hours is Gemini batch mode's target
 * turnaround. Neither API takes a window in its request.
 */
export const POLLED_REPLY_WINDOW_MS = 24 * 60 * 60 * 1000;

const UNITS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * The completion window of `options.deferred` in milliseconds (`"24h"`, `"90m"`, `"2d"`, `"30s"`),
 * or `undefined` when none is given. Throws a `TypeError` naming the option when it is not such
 * a duration.
 */
export function completionWindowMs(deferred: StreamOptions["deferred"]): number | undefined {
	if (typeof deferred !== "object" || deferred === null || deferred.window === undefined) return undefined;
	const window: unknown = deferred.window;
	const match = typeof window === "string" ? /^\s*(\d+(?:\.\d+)?)\s*([smhd])\s*$/.exec(window) : null;
	const value = match ? Number(match[1]) * (UNITS[match[2] as string] as number) : Number.NaN;
	if (!(value > 0)) throw new TypeError(`options.deferred.window must be a duration such as "24h", "90m" or "2d"; got ${JSON.stringify(window)}`);
	return value;
}

/**
 * Checks `options.deferred.window` against an API that finishes a deferred request within
 * `apiWindowMs` (`0`: it starts at once, as a Responses background job does, so any window
 * holds). A window shorter than the API's fails before anything is sent, with an error naming
 * both: the app said it cannot wait that long, and the API cannot promise sooner. The check is
 * the whole effect of `window`: none of the three APIs takes a window in its request.
 *
 * @example
 * assertCompletionWindow("anthropic-messages", { window: "1h" }, POLLED_REPLY_WINDOW_MS); // throws
 */
export function assertCompletionWindow(api: Api, deferred: StreamOptions["deferred"], apiWindowMs: number): void {
	const accepted = completionWindowMs(deferred);
	if (accepted === undefined || apiWindowMs <= 0 || accepted >= apiWindowMs) return;
	const window = (deferred as { window: string }).window;
	throw new Error(
		`options.deferred.window is ${JSON.stringify(window)}, but the "${api}" API finishes a deferred request only within ${apiWindowMs / 3_600_000} h and takes no shorter window; pass a window of at least "24h", or send the request without deferred.`,
	);
}
