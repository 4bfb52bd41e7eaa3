import type { AssistantMessageBuilder } from "../../assistant-message-builder.js";
import { cancelJob } from "../../deferred/cancel-job.js";
import { assertDeferredHandle, handleData } from "../../deferred/handle.js";
import { streamPolledReply } from "../../deferred/stream-polled-reply.js";
import { submitDeferred } from "../../deferred/submit-deferred.js";
import { getEnvApiKey } from "../../env-api-keys.js";
import { requestJson } from "../../http/request-json.js";
import { transportOptions } from "../../http/request-options.js";
import type { Api, Context, DeferredCancelOptions, DeferredFetchOptions, DeferredHandle, Model } from "../../types.js";
import { buildRequest, GEMINI_BASE_URL } from "./build-request.js";
import { convertGenerateContentResponse } from "./convert-response.js";
import type { GoogleOptions } from "./google-options.js";
import type { GeminiStreamChunk } from "./wire-types.js";

/** A batch long-running operation, as `batchGenerateContent` and `GET batches/{id}` return it. */
interface BatchOperation {
	name?: string;
	done?: boolean;
	metadata?: { state?: string };
	error?: { code?: number; message?: string; status?: string };
	response?: { inlinedResponses?: InlinedResponses | InlinedResponse[] };
}

interface InlinedResponses {
	inlinedResponses?: InlinedResponse[];
}

interface InlinedResponse {
	metadata?: { key?: string };
	response?: GeminiStreamChunk;
	error?: { code?: number; message?: string; status?: string };
}

/**
 * Sends the request as a Gemini batch of one inline request (`POST models/{model}:batchGenerateContent`,
 * its `metadata.key` a fresh random id), and finishes the message `deferred` with a handle holding
 * the operation name (`batches/…`) and the key. `onPayload` sees the `GenerateContentRequest`.
 */
export async function submitDeferredGoogle(builder: AssistantMessageBuilder, model: Model<Api>, context: Context, options: GoogleOptions, apiKey: string): Promise<void> {
	const request = buildRequest(model, context, options, apiKey);
	await submitDeferred<BatchOperation>(builder, model, { ...options, apiKey }, {
		url: `${apiRoot(model)}/models/${model.id.replace(/^models\//, "")}:batchGenerateContent`,
		headers: request.headers,
		payload: request.body,
		wrap: (payload, key) => ({ batch: { displayName: key, inputConfig: { requests: { requests: [{ request: payload, metadata: { key } }] } } } }),
		accept: (operation, key) => {
			if (typeof operation?.name !== "string" || !operation.name.startsWith("batches/")) {
				throw new Error("The Gemini batch API answered without a batch name (batches/…).");
			}
			return { id: operation.name, status: operation.metadata?.state ?? "BATCH_STATE_PENDING", data: { key } };
		},
	});
}

/**
 * Redeems a deferred Gemini reply: polls `GET batches/{id}` until the operation is done, then
 * emits the inline response of the handle's key at once. `BATCH_STATE_FAILED`, `_CANCELLED` and
 * `_EXPIRED`, and an inline response that is an error, end as `error` messages with Gemini's own
 * text. Usage is priced at the batch price (see `withDeferredPrices`).
 */
export function streamDeferredGoogle(model: Model<"google-generative-ai">, handle: DeferredHandle, options?: DeferredFetchOptions) {
	return streamPolledReply<BatchOperation>(model, handle, options, {
		initialStatus: "BATCH_STATE_PENDING",
		headers: (_handle, apiKey) => {
			if (!apiKey) throw new Error(`No API key for provider "${model.provider}": pass options.apiKey.`);
			return headersOf(model, apiKey, options?.headers);
		},
		check: async (call, checked) => {
			const operation = await requestJson<BatchOperation>({ ...call, method: "GET", url: `${apiRoot(model)}/${checked.id}` });
			const state = operation?.metadata?.state;
			const done = operation?.done === true || (state !== undefined && isFinalState(state));
			return done ? { done: true, value: operation, status: state } : { done: false, status: state };
		},
		finish: (builder, operation, state, _call, checked) => finishWithOperation(builder, operation, state, checked),
	});
}

/** Cancels a Gemini batch: `POST batches/{id}:cancel`, one request. Idempotent. */
export async function cancelDeferredGoogle(model: Model<"google-generative-ai">, handle: DeferredHandle, options?: DeferredCancelOptions): Promise<void> {
	assertDeferredHandle(model, handle, "cancelDeferred");
	const apiKey = options?.apiKey ?? getEnvApiKey(model.provider);
	if (!apiKey) throw new Error(`No API key for provider "${model.provider}": pass options.apiKey.`);
	await cancelJob({ url: `${apiRoot(model)}/${handle.id}:cancel`, method: "POST", headers: headersOf(model, apiKey, options?.headers), secrets: [apiKey], ...transportOptions(options, model) });
}

/** What each final state means, for the states that are not a success. */
const FAILED_STATES: Readonly<Record<string, string>> = {
	BATCH_STATE_FAILED: "the batch failed",
	BATCH_STATE_CANCELLED: "the batch was cancelled",
	BATCH_STATE_EXPIRED: "the batch expired before it ran",
};

function isFinalState(state: string): boolean {
	return state === "BATCH_STATE_SUCCEEDED" || state in FAILED_STATES;
}

function finishWithOperation(builder: AssistantMessageBuilder, operation: BatchOperation, state: string, handle: DeferredHandle): void {
	const failed = FAILED_STATES[state];
	if (failed || operation.error) {
		const detail = statusText(operation.error);
		builder.finish("error", { rawStopReason: state, errorMessage: `Gemini batch ${handle.id} ended with ${state}: ${failed ?? "it failed"}${detail ? ` (${detail})` : ""}.` });
		return;
	}
	const holder = operation.response?.inlinedResponses;
	const rows = Array.isArray(holder) ? holder : (holder?.inlinedResponses ?? []);
	const key = handleData(handle).key;
	const row = rows.find((candidate) => candidate?.metadata?.key === key) ?? (rows.length === 1 ? rows[0] : undefined);
	if (!row) throw new Error(`The batch ${handle.id} has no inline response with key ${String(key)}.`);
	if (row.error) {
		builder.finish("error", { rawStopReason: row.error.status, errorMessage: `The batch request failed: ${statusText(row.error) ?? "no error details"}` });
		return;
	}
	if (!row.response || typeof row.response !== "object") throw new Error(`The inline response of batch ${handle.id} has no response.`);
	convertGenerateContentResponse(builder, row.response);
}

/** `STATUS (code): message` from a `google.rpc.Status`. */
function statusText(error: InlinedResponse["error"]): string | undefined {
	if (!error) return undefined;
	const label = [error.status, error.code].filter((value) => value !== undefined && value !== "").join(" ");
	if (error.message) return label ? `${label}: ${error.message}` : error.message;
	return label || undefined;
}

function apiRoot(model: Model<Api>): string {
	return (model.baseUrl || GEMINI_BASE_URL).replace(/\/+$/, "");
}

function headersOf(model: Model<Api>, apiKey: string, headers: Record<string, string> | undefined): Record<string, string> {
	return { "x-goog-api-key": apiKey, ...model.headers, ...headers };
}
