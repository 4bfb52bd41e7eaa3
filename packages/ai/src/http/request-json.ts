import { redactSecrets } from "../utils/redact.js";
import { ApiCallError } from "./api-call-error.js";
import { startCall } from "./http-call.js";
import { openResponse } from "./open-response.js";
import type { HttpRequest } from "./request-options.js";

/** One plain (not streamed) HTTP call of the seam: a status check, a cancel, a deferred submission, a results download. */
export interface JsonRequest extends HttpRequest {
	method: "GET" | "POST";
	/** Statuses that are an answer, not a transient failure, for this call (a cancel's `409`): never retried. */
	finalStatuses?: readonly number[];
}

/** The largest body read (a batch results file of many rows), 64 MiB. */
const MAX_BODY_CHARACTERS = 64 * 1024 * 1024;

/**
 * Sends one request and resolves to its body parsed as JSON, with the same guarantees as
 * `postEventStream`: a non-2xx answer rejects with an {@link ApiCallError} naming the status and
 * the provider's message; retryable failures are retried with backoff (honouring `retry-after`);
 * no bytes for `idleTimeoutMs` fail with an idle timeout, `timeoutMs` bounds the whole call;
 * `onResponse` is told each attempt's status; aborting `signal` rejects at once with its reason.
 * A 2xx body that is not JSON rejects, quoting its start.
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
	const call = startCall(request);
	try {
		for (let attempt = 0; ; attempt++) {
			if (call.signal?.aborted) throw call.signal.reason;
			try {
				const opened = await openResponse(request, call.signal, call.body, "any");
				try {
					return await readWhole(opened.response, opened.refresh);
				} catch (error) {
					throw opened.explain(error);
				} finally {
					opened.close();
				}
			} catch (error) {
				await call.retryAfter(error, attempt, (failure) => failure.status !== undefined && request.finalStatuses?.includes(failure.status) === true);
			}
		}
	} finally {
		call.end();
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
