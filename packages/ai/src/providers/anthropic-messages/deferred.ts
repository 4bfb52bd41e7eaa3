import type { AssistantMessageBuilder } from "../../assistant-message-builder.js";
import { cancelJob } from "../../deferred/cancel-job.js";
import { assertDeferredHandle, handleData, parseTime } from "../../deferred/handle.js";
import { streamPolledReply } from "../../deferred/stream-polled-reply.js";
import { submitDeferred } from "../../deferred/submit-deferred.js";
import { getEnvApiKey } from "../../env-api-keys.js";
import { requestJson, requestText } from "../../http/request-json.js";
import { transportOptions } from "../../http/request-options.js";
import type { Api, Context, DeferredCancelOptions, DeferredFetchOptions, DeferredHandle, Model } from "../../types.js";
import { type AnthropicOptions, authHeaders, batchesUrl, buildRequest } from "./build-request.js";
import { type AnthropicMessageObject, convertMessageObject } from "./convert-response.js";

/** How long Anthropic keeps a batch's results: 29 days after its creation. */
export const RESULTS_RETENTION_MS = 29 * 24 * 60 * 60 * 1000;

/** A Message Batch object (the fields read here). */
interface MessageBatch {
	id?: string;
	processing_status?: string;
	created_at?: string;
	expires_at?: string;
	results_url?: string | null;
}

/** One line of a batch's results file. */
interface BatchResultRow {
	custom_id?: string;
	result?: {
		type?: string;
		message?: AnthropicMessageObject;
		error?: { type?: string; error?: { type?: string; message?: string }; message?: string };
	};
}

/**
 * Sends the request as a Message Batch of one (`POST /v1/messages/batches`, its `custom_id` a
 * fresh random id) and finishes the message `deferred`, with a handle holding the batch id, the
 * `custom_id` and when the results expire (29 days after creation). `onPayload` sees the
 * message parameters, as for a normal request.
 */
export async function submitDeferredAnthropic(builder: AssistantMessageBuilder, model: Model<Api>, context: Context, options: AnthropicOptions): Promise<void> {
	const request = buildRequest(model, context, options);
	const { stream: _stream, ...params } = request.body;
	await submitDeferred<MessageBatch>(builder, model, options, {
		url: batchesUrl(model),
		headers: request.headers,
		payload: params,
		wrap: (payload, customId) => ({ requests: [{ custom_id: customId, params: payload }] }),
		accept: (batch, customId) => {
			if (typeof batch?.id !== "string" || batch.id === "") throw new Error("The Message Batches API answered without a batch id.");
			const created = parseTime(batch.created_at) ?? Date.now();
			return { id: batch.id, status: batch.processing_status ?? "in_progress", expiresAt: created + RESULTS_RETENTION_MS, data: { customId } };
		},
	});
}

/**
 * Redeems a deferred Anthropic reply: polls `GET /v1/messages/batches/{id}` until
 * `processing_status` is `ended`, reads the `results_url` JSONL, finds the row of the handle's
 * `custom_id` (rows come in any order, other requests' rows may be there), and emits its message
 * at once. `errored`, `canceled` and `expired` results end as `error` messages carrying the
 * provider's text. Usage is priced at the batch price (see `withDeferredPrices`).
 */
export function streamDeferredAnthropic(model: Model<"anthropic-messages">, handle: DeferredHandle, options?: DeferredFetchOptions) {
	return streamPolledReply<MessageBatch>(model, handle, options, {
		initialStatus: "in_progress",
		headers: (checked, apiKey) => {
			const customId = handleData(checked).customId;
			if (typeof customId !== "string" || customId === "") throw new TypeError("streamDeferred: handle.data.customId must be the batch request's custom_id");
			return authHeaders(model, { apiKey, headers: options?.headers });
		},
		check: async (call, checked) => {
			const batch = await requestJson<MessageBatch>({ ...call, method: "GET", url: batchesUrl(model, checked.id) });
			return batch?.processing_status === "ended" ? { done: true, value: batch } : { done: false, status: batch?.processing_status };
		},
		finish: async (builder, batch, _status, call, checked) => {
			const resultsUrl = batch.results_url;
			if (typeof resultsUrl !== "string" || resultsUrl === "") throw new Error(`The batch ${checked.id} ended without a results_url.`);
			const customId = handleData(checked).customId as string;
			const row = findRow(await requestText({ ...call, method: "GET", url: resultsUrl }), customId);
			if (!row) throw new Error(`The results of batch ${checked.id} have no row with custom_id ${customId}.`);
			finishWithRow(builder, row);
		},
	});
}

/** Cancels a Message Batch: `POST /v1/messages/batches/{id}/cancel`, one request. Idempotent. */
export async function cancelDeferredAnthropic(model: Model<"anthropic-messages">, handle: DeferredHandle, options?: DeferredCancelOptions): Promise<void> {
	assertDeferredHandle(model, handle, "cancelDeferred");
	const apiKey = options?.apiKey ?? getEnvApiKey(model.provider);
	await cancelJob({
		url: `${batchesUrl(model, handle.id)}/cancel`,
		method: "POST",
		headers: authHeaders(model, { apiKey, headers: options?.headers }),
		secrets: [apiKey],
		...transportOptions(options, model),
	});
}

/** The row of `customId` in a results file; blank lines are skipped, a broken line is an error naming it. */
export function findRow(jsonl: string, customId: string): BatchResultRow | undefined {
	const lines = jsonl.split(/\r?\n/);
	for (let i = 0; i < lines.length; i++) {
		const line = lines[i]?.trim();
		if (!line) continue;
		let row: BatchResultRow;
		try {
			row = JSON.parse(line) as BatchResultRow;
		} catch {
			throw new Error(`Line ${i + 1} of the batch results is not JSON: ${line.slice(0, 120)}`);
		}
		if (row?.custom_id === customId) return row;
	}
	return undefined;
}

function finishWithRow(builder: AssistantMessageBuilder, row: BatchResultRow): void {
	const result = row.result;
	switch (result?.type) {
		case "succeeded":
			if (!result.message || typeof result.message !== "object") throw new Error("A succeeded batch result has no message.");
			convertMessageObject(builder, result.message);
			return;
		case "errored": {
			// `error` is the API's error response: `{ type: "error", error: { type, message } }`.
			const inner = result.error?.error ?? result.error;
			const type = inner?.type && inner.type !== "error" ? inner.type : undefined;
			const text = inner?.message ? (type ? `${type}: ${inner.message}` : inner.message) : (type ?? "no error details");
			builder.finish("error", { rawStopReason: "errored", errorMessage: `The batch request failed: ${text}` });
			return;
		}
		case "canceled":
			builder.finish("error", { rawStopReason: "canceled", errorMessage: "The batch request was canceled (result type canceled) before it was processed." });
			return;
		case "expired":
			builder.finish("error", { rawStopReason: "expired", errorMessage: "The batch request expired (result type expired): the batch reached its 24-hour limit before the request was processed." });
			return;
		default:
			builder.finish("error", { rawStopReason: result?.type, errorMessage: `The batch result has an unknown type ${JSON.stringify(result?.type ?? null)}.` });
	}
}
