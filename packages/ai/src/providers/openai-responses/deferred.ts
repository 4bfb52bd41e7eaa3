import type { AssistantMessageBuilder } from "../../assistant-message-builder.js";
import { cancelJob } from "../../deferred/cancel-job.js";
import { assertDeferredHandle, DeferredExpiredError, handleData, makeHandle, pollJob, waitDeadline } from "../../deferred/handle.js";
import { getEnvApiKey } from "../../env-api-keys.js";
import { ApiCallError } from "../../http/api-call-error.js";
import { postEventStreamBatches } from "../../http/post-event-stream.js";
import { requestJson } from "../../http/request-json.js";
import { type TransportOptions, transportOptions } from "../../http/request-options.js";
import { backoffDelay, delay } from "../../http/retry-delay.js";
import { createProviderStream } from "../../provider-stream.js";
import type { Api, DeferredCancelOptions, DeferredFetchOptions, DeferredHandle, JsonValue, Model } from "../../types.js";
import { requestHeaders, responsesUrl } from "./build-request.js";
import { convertResponseObject, isFinishedStatus, type ResponsesResponseObject } from "./convert-response.js";
import { ResponsesStreamState } from "./responses-stream-state.js";

/**
 * Redeems a deferred OpenAI Responses reply (a `background: true` job) from its handle.
 *
 * - `resume: "stream"` (the default): `GET {baseUrl}/responses/{id}?stream=true&starting_after=N`,
 *   where `N` is the handle's `resumeAfter` (the last event before the reply's first output), so
 *   that the message is whole. A connection that drops, or a stream that ends before the terminal
 *   event, reconnects after the last `sequence_number` handled: no delta is lost or repeated.
 *   After `maxRetries` reconnections in a row that bring nothing new, it ends `deferred` again.
 * - `resume: "poll"` (the default of `fetchDeferred`): `GET {baseUrl}/responses/{id}` until the
 *   status leaves `queued`/`in_progress`, then the finished object becomes the message (see
 *   `convertResponseObject`), exactly as the stream would have given it.
 *
 * `maxWaitMs`, `pollAfterMs`, `expiresAt` and `signal` work as `streamDeferred` documents.
 */
export function streamDeferredOpenAIResponses(model: Model<Api>, handle: DeferredHandle, options?: DeferredFetchOptions) {
	const apiKey = options?.apiKey ?? getEnvApiKey(model.provider);
	return createProviderStream(model, { ...options, apiKey }, async (builder) => {
		assertDeferredHandle(model, handle, "streamDeferred");
		if (handle.expiresAt !== undefined && Date.now() >= handle.expiresAt) throw new DeferredExpiredError(handle);
		const deadline = waitDeadline(options, Number.POSITIVE_INFINITY);
		const call = { headers: requestHeaders(model, apiKey, options?.headers), secrets: [apiKey], ...transportOptions(options, model) };
		// A stream with no time left is one status check, like `fetchDeferred`.
		if ((options?.resume ?? "stream") === "stream" && deadline > Date.now()) {
			await resumeStream({ builder, model, handle, options, deadline, call });
		} else {
			await pollResponse({ builder, model, handle, options, deadline, call });
		}
	});
}

/** Cancels a background response: `POST {baseUrl}/responses/{id}/cancel`, one request. Idempotent. */
export async function cancelDeferredOpenAIResponses(model: Model<Api>, handle: DeferredHandle, options?: DeferredCancelOptions): Promise<void> {
	assertDeferredHandle(model, handle, "cancelDeferred");
	const apiKey = options?.apiKey ?? getEnvApiKey(model.provider);
	await cancelJob({
		url: `${responsesUrl(model, handle.id)}/cancel`,
		method: "POST",
		headers: requestHeaders(model, apiKey, options?.headers),
		secrets: [apiKey],
		...transportOptions(options, model),
	});
}

/** What every request of a redemption shares: the headers, the key to scrub, the transport options. */
interface Call extends TransportOptions {
	headers: Record<string, string>;
	secrets: (string | undefined)[];
}

/** One redemption: the reply being built, the job's handle, the caller's options, when to stop waiting. */
interface Redemption {
	builder: AssistantMessageBuilder;
	model: Model<Api>;
	handle: DeferredHandle;
	options: DeferredFetchOptions | undefined;
	/** Epoch milliseconds, or `Infinity`. */
	deadline: number;
	call: Call;
}

const DEADLINE = "maxWaitMs passed";

/** Ends the reply `deferred` again once `maxWaitMs` passed; a stream with no cursor to resume from is an error. */
function deferAtDeadline(state: ResponsesStreamState): void {
	if (!state.deferNow(DEADLINE)) throw new Error(`${DEADLINE} before the response could be resumed.`);
}

async function resumeStream({ builder, model, handle, options, deadline, call }: Redemption): Promise<void> {
	const data = handleData(handle);
	const cursor = numberOf(data.resumeAfter) ?? numberOf(data.sequenceNumber);
	const state = new ResponsesStreamState(builder, model, {
		resume: { responseId: handle.id, sequenceNumber: cursor, status: typeof data.status === "string" ? data.status : undefined },
	});
	const timeUp = new AbortController();
	const timer = Number.isFinite(deadline) ? setTimeout(() => timeUp.abort(new Error(DEADLINE)), Math.max(0, deadline - Date.now())) : undefined;
	const signal = options?.signal ? AbortSignal.any([options.signal, timeUp.signal]) : timeUp.signal;
	const maxReconnects = Math.max(0, options?.maxRetries ?? 2);
	let idleReconnects = 0;
	try {
		for (;;) {
			const before = state.sequenceNumber;
			const query = before === undefined ? "stream=true" : `stream=true&starting_after=${before}`;
			let reason = "the stream ended before the response finished";
			try {
				const batches = postEventStreamBatches({ ...call, method: "GET", url: `${responsesUrl(model, handle.id)}?${query}`, signal });
				for await (const batch of batches) {
					for (const event of batch) {
						state.handleData(event.data);
						if (builder.isFinished) return;
					}
				}
			} catch (error) {
				if (options?.signal?.aborted) {
					builder.fail(error, options.signal);
					return;
				}
				if (timeUp.signal.aborted) {
					deferAtDeadline(state);
					return;
				}
				// An HTTP answer (404: no such response, 401, …) is final, and so is `timeoutMs`; a broken
				// connection is not.
				if (!(error instanceof ApiCallError) || error.status !== undefined || !error.isRetryable) throw error;
				reason = error.message;
			}
			if (state.sequenceNumber !== before) idleReconnects = 0;
			else if (++idleReconnects > maxReconnects) {
				state.deferNow(`${reason}; ${maxReconnects + 1} reconnections in a row brought nothing new`);
				if (!builder.isFinished) throw new Error(reason);
				return;
			}
			if (idleReconnects > 0) await delay(backoffDelay(idleReconnects), signal).catch(() => undefined);
			if (timeUp.signal.aborted && !options?.signal?.aborted) {
				deferAtDeadline(state);
				return;
			}
		}
	} finally {
		if (timer) clearTimeout(timer);
	}
}

async function pollResponse({ builder, model, handle, options, deadline, call }: Redemption): Promise<void> {
	let status = typeof handleData(handle).status === "string" ? (handleData(handle).status as string) : "in_progress";
	const outcome = await pollJob<ResponsesResponseObject>(handle, options, deadline, async () => {
		const response = await requestJson<ResponsesResponseObject>({ ...call, method: "GET", url: responsesUrl(model, handle.id) });
		if (typeof response !== "object" || response === null) throw new Error("The response object is not a JSON object.");
		if (isFinishedStatus(response.status)) return { done: true as const, value: response };
		if (typeof response.status === "string") status = response.status;
		return { done: false as const };
	});
	if (outcome.kind === "done") {
		convertResponseObject(builder, model, outcome.value);
		return;
	}
	// Still running: the same job, with its latest status, and the stream cursor left as it was.
	const data: Record<string, JsonValue> = { ...handleData(handle), status };
	builder.setResponseId(handle.id);
	builder.finish("deferred", { rawStopReason: status, deferred: { ...makeHandle(model, handle.id, { data }), ...keep(handle) } });
}

function keep(handle: DeferredHandle): Partial<DeferredHandle> {
	const kept: Partial<DeferredHandle> = {};
	if (handle.expiresAt !== undefined) kept.expiresAt = handle.expiresAt;
	if (handle.pollAfterMs !== undefined) kept.pollAfterMs = handle.pollAfterMs;
	return kept;
}

function numberOf(value: JsonValue | undefined): number | undefined {
	return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}
