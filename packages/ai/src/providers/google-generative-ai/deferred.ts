import type { AssistantMessageBuilder } from "../../assistant-message-builder.js";
import { withBatchPrices } from "../../deferred/batch-pricing.js";
import { cancelJob } from "../../deferred/cancel-job.js";
import { assertDeferredHandle, handleData, makeHandle } from "../../deferred/handle.js";
import { pollJob, waitDeadline } from "../../deferred/poll-job.js";
import { getEnvApiKey } from "../../env-api-keys.js";
import { transportOptions } from "../../http/request-options.js";
import { requestJson } from "../../http/request-json.js";
import { createProviderStream } from "../../provider-stream.js";
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
export async function submitBatch(builder: AssistantMessageBuilder, model: Model<Api>, context: Context, options: GoogleOptions, apiKey: string): Promise<void> {
	const request = buildRequest(model, context, options, apiKey);
	const payload = (await options.onPayload?.(request.body, model)) ?? request.body;
	const key = `pi-${randomKey()}`;
	const operation = await requestJson<BatchOperation>({
		url: `${apiRoot(model)}/models/${model.id.replace(/^models\//, "")}:batchGenerateContent`,
		method: "POST",
		headers: request.headers,
		body: { batch: { displayName: key, inputConfig: { requests: { requests: [{ request: payload, metadata: { key } }] } } } },
		secrets: [apiKey],
		...transportOptions(options, model),
	});
	if (typeof operation?.name !== "string" || !operation.name.startsWith("batches/")) {
		throw new Error("The Gemini batch API answered without a batch name (batches/…).");
	}
	builder.setResponseId(operation.name);
	builder.finish("deferred", { rawStopReason: operation.metadata?.state ?? "BATCH_STATE_PENDING", deferred: makeHandle(model, operation.name, { data: { key } }) });
}

/**
 * Redeems a deferred Gemini reply: polls `GET batches/{id}` until the operation is done, then
 * emits the inline response of the handle's key at once. `BATCH_STATE_FAILED`, `_CANCELLED` and
 * `_EXPIRED`, and an inline response that is an error, end as `error` messages with Gemini's own
 * text. Usage is priced at the batch price (see `withBatchPrices`).
 */
export function streamDeferredGoogle(model: Model<"google-generative-ai">, handle: DeferredHandle, options?: DeferredFetchOptions) {
	const apiKey = options?.apiKey ?? getEnvApiKey(model.provider);
	return createProviderStream(withBatchPrices(model as Model<Api>), { ...options, apiKey }, async (builder) => {
		assertDeferredHandle(model, handle, "streamDeferred");
		if (!apiKey) throw new Error(`No API key for provider "${model.provider}": pass options.apiKey.`);
		const call = { headers: headersOf(model, apiKey, options?.headers), secrets: [apiKey], ...transportOptions(options, model) };
		let state = "BATCH_STATE_PENDING";
		const outcome = await pollJob<BatchOperation>(handle, options, waitDeadline(options, Number.POSITIVE_INFINITY), async () => {
			const operation = await requestJson<BatchOperation>({ ...call, method: "GET", url: `${apiRoot(model)}/${handle.id}` });
			state = operation?.metadata?.state ?? state;
			if (operation?.done === true || isFinalState(state)) return { done: true, value: operation };
			return { done: false };
		});
		builder.setResponseId(handle.id);
		if (outcome.kind === "waiting") {
			builder.finish("deferred", { rawStopReason: state, deferred: structuredClone(handle) });
			return;
		}
		finishWithOperation(builder, outcome.value, state, handle);
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

function randomKey(): string {
	const bytes = new Uint8Array(12);
	globalThis.crypto.getRandomValues(bytes);
	return Array.from(bytes, (byte) => byte.toString(36).padStart(2, "0")).join("").slice(0, 16);
}
