import { AssistantMessageBuilder } from "../../assistant-message-builder.js";
import { withBatchPrices } from "../../deferred/batch-pricing.js";
import { cancelJob } from "../../deferred/cancel-job.js";
import { assertDeferredHandle, handleData, makeHandle, parseTime } from "../../deferred/handle.js";
import { pollJob, waitDeadline } from "../../deferred/poll-job.js";
import { getEnvApiKey } from "../../env-api-keys.js";
import { transportOptions } from "../../http/request-options.js";
import { requestJson, requestText } from "../../http/request-json.js";
import { createProviderStream } from "../../provider-stream.js";
import type { Api, Context, DeferredCancelOptions, DeferredFetchOptions, DeferredHandle, Model } from "../../types.js";
import { type AnthropicOptions, authHeaders, batchesUrl, buildRequest } from "./build-request.js";
import { type AnthropicMessageObject, convertMessageObject } from "./convert-message.js";

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
export async function submitBatch(builder: AssistantMessageBuilder, model: Model<Api>, context: Context, options: AnthropicOptions): Promise<void> {
	const request = buildRequest(model, context, options);
	const { stream: _stream, ...params } = request.body;
	const payload = (await options.onPayload?.(params, model)) ?? params;
	const customId = `pi-${randomId()}`;
	const batch = await requestJson<MessageBatch>({
		url: batchesUrl(model),
		method: "POST",
		headers: request.headers,
		body: { requests: [{ custom_id: customId, params: payload }] },
		secrets: [options.apiKey],
		...transportOptions(options, model),
	});
	if (typeof batch?.id !== "string" || batch.id === "") throw new Error("The Message Batches API answered without a batch id.");
	const created = parseTime(batch.created_at) ?? Date.now();
	builder.setResponseId(batch.id);
	builder.finish("deferred", {
		rawStopReason: batch.processing_status ?? "in_progress",
		deferred: makeHandle(model, batch.id, { expiresAt: created + RESULTS_RETENTION_MS, data: { customId } }),
	});
}

/**
 * Redeems a deferred Anthropic reply: polls `GET /v1/messages/batches/{id}` until
 * `processing_status` is `ended`, reads the `results_url` JSONL, finds the row of the handle's
 * `custom_id` (rows come in any order, other requests' rows may be there), and emits its message
 * at once. `errored`, `canceled` and `expired` results end as `error` messages carrying the
 * provider's text. Usage is priced at the batch price (see `withBatchPrices`).
 */
export function streamDeferredAnthropic(model: Model<"anthropic-messages">, handle: DeferredHandle, options?: DeferredFetchOptions) {
	const apiKey = options?.apiKey ?? getEnvApiKey(model.provider);
	const priced = withBatchPrices(model as Model<Api>);
	return createProviderStream(priced, { ...options, apiKey }, async (builder) => {
		assertDeferredHandle(model, handle, "streamDeferred");
		const customId = handleData(handle).customId;
		if (typeof customId !== "string" || customId === "") throw new TypeError("streamDeferred: handle.data.customId must be the batch request's custom_id");
		const headers = authHeaders(model, { apiKey, headers: options?.headers });
		const call = { headers, secrets: [apiKey], ...transportOptions(options, model) };
		let status = "in_progress";
		const outcome = await pollJob<MessageBatch>(handle, options, waitDeadline(options, Number.POSITIVE_INFINITY), async () => {
			const batch = await requestJson<MessageBatch>({ ...call, method: "GET", url: batchesUrl(model, handle.id) });
			if (batch?.processing_status === "ended") return { done: true, value: batch };
			status = batch?.processing_status ?? status;
			return { done: false };
		});
		builder.setResponseId(handle.id);
		if (outcome.kind === "waiting") {
			builder.finish("deferred", { rawStopReason: status, deferred: structuredClone(handle) });
			return;
		}
		const resultsUrl = outcome.value.results_url;
		if (typeof resultsUrl !== "string" || resultsUrl === "") throw new Error(`The batch ${handle.id} ended without a results_url.`);
		const text = await requestText({ ...call, method: "GET", url: resultsUrl });
		const row = findRow(text, customId);
		if (!row) throw new Error(`The results of batch ${handle.id} have no row with custom_id ${customId}.`);
		finishWithRow(builder, row);
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

/** 16 random letters and digits: a `custom_id` (`^[a-zA-Z0-9_-]{1,64}$`) that no other request shares. */
function randomId(): string {
	const bytes = new Uint8Array(12);
	globalThis.crypto.getRandomValues(bytes);
	return Array.from(bytes, (byte) => byte.toString(36).padStart(2, "0")).join("").slice(0, 16);
}
