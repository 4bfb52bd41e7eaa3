import type { AssistantMessageBuilder } from "../assistant-message-builder.js";
import { requestJson } from "../http/request-json.js";
import { transportOptions } from "../http/request-options.js";
import type { Api, DeferredHandle, JsonValue, Model, StreamOptions } from "../types.js";
import { assertCompletionWindow, POLLED_REPLY_WINDOW_MS } from "./completion-window.js";
import { makeHandle } from "./handle.js";

/** How one API takes a deferred request as a job of one request (a Message Batch, a Gemini batch). */
export interface DeferredSubmission<TAnswer> {
	url: string;
	headers: Record<string, string>;
	/** The request as a normal call would send it; `onPayload` sees (and may replace) it. */
	payload: unknown;
	/** The submission body around the (possibly replaced) payload, tagged with `requestId`. */
	wrap(payload: unknown, requestId: string): unknown;
	/**
	 * Reads the API's answer: the job id, its status, and what the handle keeps besides. Throws
	 * when the answer has no job id, naming the API.
	 */
	accept(answer: TAnswer, requestId: string): { id: string; status: string; expiresAt?: number; data?: Record<string, JsonValue> };
}

/**
 * Sends a deferred request as a job of one and finishes the message `deferred`, its handle naming
 * the job. The request gets a fresh random id (`pi-` and 16 letters and digits: a valid Anthropic
 * `custom_id` and Gemini `metadata.key`), so that its row can be found among others. The request
 * goes through the HTTP seam with the caller's transport options; `onPayload` sees the payload.
 * A `deferred.window` shorter than the batch APIs' 24 hours fails before anything is sent.
 */
export async function submitDeferred<TAnswer>(
	builder: AssistantMessageBuilder,
	model: Model<Api>,
	options: StreamOptions,
	submission: DeferredSubmission<TAnswer>,
): Promise<void> {
	assertCompletionWindow(model.api, options.deferred, POLLED_REPLY_WINDOW_MS);
	const payload = (await options.onPayload?.(submission.payload, model)) ?? submission.payload;
	const requestId = `pi-${randomId()}`;
	const answer = await requestJson<TAnswer>({
		url: submission.url,
		method: "POST",
		headers: submission.headers,
		body: submission.wrap(payload, requestId),
		secrets: [options.apiKey],
		...transportOptions(options, model),
	});
	const job = submission.accept(answer, requestId);
	const handle: DeferredHandle = makeHandle(model, job.id, { expiresAt: job.expiresAt, data: job.data });
	builder.setResponseId(job.id);
	builder.finish("deferred", { rawStopReason: job.status, deferred: handle });
}

/** 16 random letters and digits. */
function randomId(): string {
	const bytes = new Uint8Array(12);
	globalThis.crypto.getRandomValues(bytes);
	return Array.from(bytes, (byte) => byte.toString(36).padStart(2, "0")).join("").slice(0, 16);
}
