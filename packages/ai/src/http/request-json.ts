import type { RetryInfo } from "../types.js";
import { redactSecrets } from "../utils/redact.js";
import { ApiCallError, IdleTimeoutError } from "./api-call-error.js";
import { httpError, readText, toApiCallError, waitBeforeRetry } from "./http-failure.js";
import { DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_MAX_RETRIES, DEFAULT_MAX_RETRY_DELAY_MS } from "./post-event-stream.js";

/** One plain (not streamed) HTTP call of the seam: a status check, a cancel, a batch submission. */
export interface JsonRequest {
	url: string;
	method: "GET" | "POST";
	headers: Record<string, string>;
	/** Serialized as JSON when given. A `POST` without a body sends none. */
	body?: unknown;
	signal?: AbortSignal;
	/** Retries of network errors, 408, 409, 429, 5xx. Default {@link DEFAULT_MAX_RETRIES}. */
	maxRetries?: number;
	/** Give up when the server asks to wait longer. Default {@link DEFAULT_MAX_RETRY_DELAY_MS}. */
	maxRetryDelayMs?: number;
	/** Fail when no bytes arrive for this long; 0 disables. Default {@link DEFAULT_IDLE_TIMEOUT_MS}. */
	idleTimeoutMs?: number;
	onRetry?: (info: RetryInfo) => void;
	/** Strings (API keys) scrubbed from every error message. */
	secrets?: readonly (string | undefined)[];
	/** Statuses that are an answer, not a transient failure, for this call (a cancel's `409`): never retried. */
	finalStatuses?: readonly number[];
}

/** The largest body read (a batch results file of many rows), 64 MiB. */
const MAX_BODY_CHARACTERS = 64 * 1024 * 1024;

/**
 * Sends one request and resolves to its body parsed as JSON, with the same guarantees as
 * `postEventStream`: a non-2xx answer rejects with an {@link ApiCallError} naming the status and
 * the provider's message; retryable failures are retried with backoff (honouring `retry-after`);
 * no bytes for `idleTimeoutMs` fail with an idle timeout; aborting `signal` rejects at once with
 * its reason. A 2xx body that is not JSON rejects, quoting its start.
 *
 * @example
 * const batch = await requestJson({ url: `${base}/v1/messages/batches/${id}`, method: "GET", headers });
 */
export async function requestJson<T = unknown>(request: JsonRequest): Promise<T> {
	const text = await requestText(request);
	try {
		return JSON.parse(text) as T;
	} catch {
		const preview = text.length > 200 ? `${text.slice(0, 200)}…` : text;
		throw new ApiCallError(redactSecrets(`Expected a JSON body from ${request.method} ${request.url}, got: ${preview}`, request.secrets ?? []), {
			url: request.url,
		});
	}
}

/** Like {@link requestJson}, resolving to the body as text (a JSONL results file, say). */
export async function requestText(request: JsonRequest): Promise<string> {
	const maxRetries = Math.max(0, request.maxRetries ?? DEFAULT_MAX_RETRIES);
	const maxRetryDelayMs = request.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS;
	const secrets = request.secrets ?? [];
	const body = request.body === undefined ? undefined : JSON.stringify(request.body);
	for (let attempt = 0; ; attempt++) {
		if (request.signal?.aborted) throw request.signal.reason;
		try {
			return await attemptOnce(request, body);
		} catch (error) {
			if (request.signal?.aborted) throw request.signal.reason ?? error;
			const failure = toApiCallError(error, request.url, secrets);
			if (failure.status !== undefined && request.finalStatuses?.includes(failure.status)) throw failure;
			await waitBeforeRetry(failure, attempt, { signal: request.signal, maxRetries, maxRetryDelayMs, onRetry: request.onRetry, secrets });
		}
	}
}

async function attemptOnce(request: JsonRequest, body: string | undefined): Promise<string> {
	const idleTimeoutMs = request.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
	const controller = new AbortController();
	const userSignal = request.signal;
	const onAbort = () => controller.abort(userSignal?.reason);
	userSignal?.addEventListener("abort", onAbort, { once: true });
	let idle: IdleTimeoutError | undefined;
	const timer =
		idleTimeoutMs > 0
			? setTimeout(() => {
					idle = new IdleTimeoutError(idleTimeoutMs);
					controller.abort(idle);
				}, idleTimeoutMs)
			: undefined;
	try {
		let response: Response;
		try {
			response = await fetch(request.url, {
				method: request.method,
				headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), accept: "application/json", ...request.headers },
				body,
				signal: controller.signal,
			});
		} catch (error) {
			throw idle ?? error;
		}
		timer?.refresh();
		if (!response.ok) {
			const text = await readText(response, () => timer?.refresh()).catch((error: unknown) => {
				throw idle ?? error;
			});
			throw httpError(response, text, request.url, request.secrets ?? []);
		}
		return await readWhole(response, () => timer?.refresh()).catch((error: unknown) => {
			throw idle ?? error;
		});
	} finally {
		if (timer) clearTimeout(timer);
		userSignal?.removeEventListener("abort", onAbort);
	}
}

async function readWhole(response: Response, onBytes: () => void): Promise<string> {
	if (!response.body) return "";
	const reader = response.body.getReader();
	const decoder = new TextDecoder();
	const parts: string[] = [];
	let length = 0;
	for (;;) {
		const chunk = await reader.read();
		if (chunk.done) break;
		onBytes();
		const text = decoder.decode(chunk.value, { stream: true });
		parts.push(text);
		length += text.length;
		if (length > MAX_BODY_CHARACTERS) {
			reader.cancel().catch(() => {});
			throw new ApiCallError(`The response body is larger than ${MAX_BODY_CHARACTERS} characters.`, { url: response.url });
		}
	}
	parts.push(decoder.decode());
	return parts.join("");
}
