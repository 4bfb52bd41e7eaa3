import { redactSecrets } from "../utils/redact.js";
import { ApiCallError, IdleTimeoutError } from "./api-call-error.js";
import { httpError, readText } from "./http-failure.js";
import { type IdleTimer, startIdleTimer } from "./idle-timer.js";
import { DEFAULT_IDLE_TIMEOUT_MS, type HttpRequest } from "./request-options.js";

/** One attempt of a call, once its answer was accepted: the response, and the attempt's idle timer and abort. */
export interface OpenResponse {
	readonly response: Response;
	/** Restarts the idle countdown: call it for every chunk read. */
	refresh(): void;
	/** `error`, or the idle timeout that caused it (a body read that failed because the attempt was cut). */
	explain(error: unknown): unknown;
	/** Whether the attempt was aborted (by the caller, the call's timeout or the idle timeout). */
	readonly aborted: boolean;
	/** Stops the idle timer and lets go of the caller's signal. Call once, in a `finally`. */
	close(): void;
}

/** What the answer must be: an event stream, or any 2xx body. */
export type Expected = "event-stream" | "any";

/**
 * Sends one attempt of `request` and waits for an answer it can use: the part of the seam that
 * every reader shares.
 *
 * - The attempt has its own controller, aborted by `signal` (the call's) and by the idle timeout
 *   (no bytes for `idleTimeoutMs`, also while waiting for the headers).
 * - `onResponse` is told the status and headers; a throw there is the caller's bug, so it ends
 *   the call unretried.
 * - A non-2xx answer (or, for `event-stream`, a 2xx that is not one) rejects with an
 *   {@link ApiCallError} naming the status and the provider's message.
 *
 * On a rejection everything is released; on success the caller reads the body and then `close()`s.
 */
export async function openResponse(request: HttpRequest, signal: AbortSignal | undefined, body: string | undefined, expected: Expected): Promise<OpenResponse> {
	const idleTimeoutMs = request.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
	const controller = new AbortController();
	const onAbort = () => controller.abort(signal?.reason);
	if (signal?.aborted) onAbort();
	else signal?.addEventListener("abort", onAbort, { once: true });
	let idle: IdleTimeoutError | undefined;
	const timer: IdleTimer | undefined =
		idleTimeoutMs > 0
			? startIdleTimer(idleTimeoutMs, () => {
					idle = new IdleTimeoutError(idleTimeoutMs);
					controller.abort(idle);
				})
			: undefined;
	const close = () => {
		timer?.clear();
		signal?.removeEventListener("abort", onAbort);
	};
	const explain = (error: unknown) => idle ?? error;
	try {
		let response: Response;
		try {
			response = await fetch(request.url, {
				method: request.method ?? "POST",
				headers: {
					...(body === undefined ? {} : { "content-type": "application/json" }),
					accept: expected === "event-stream" ? "text/event-stream" : "application/json",
					...request.headers,
				},
				body,
				signal: controller.signal,
			});
		} catch (error) {
			throw explain(error);
		}
		timer?.refresh();
		if (request.onResponse) await tellResponse(request, response);
		if (!response.ok || (expected === "event-stream" && !/event-stream/i.test(response.headers.get("content-type") ?? ""))) {
			const text = await readText(response, () => timer?.refresh()).catch((error: unknown) => {
				throw explain(error);
			});
			throw httpError(response, text, request.url, request.secrets ?? []);
		}
		return {
			response,
			refresh: () => timer?.refresh(),
			explain,
			get aborted() {
				return controller.signal.aborted;
			},
			close,
		};
	} catch (error) {
		close();
		throw error;
	}
}

/** Calls `onResponse`; a failure there is the caller's bug, so it ends the call unretried. */
async function tellResponse(request: HttpRequest, response: Response): Promise<void> {
	const headers: Record<string, string> = {};
	response.headers.forEach((value, name) => {
		headers[name] = value;
	});
	try {
		await request.onResponse?.({ status: response.status, headers });
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		throw new ApiCallError(redactSecrets(`The onResponse callback failed: ${reason}`, request.secrets ?? []), { url: request.url, isRetryable: false, cause: error });
	}
}
