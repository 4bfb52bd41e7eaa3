import { assertDeferredHandle } from "./deferred/handle.js";
import { finalMessage, guardedStream, providerFor } from "./entry-point.js";
import type { AssistantMessageEventStream } from "./event-stream.js";
import type { Api, AssistantMessage, DeferredCancelOptions, DeferredFetchOptions, DeferredHandle, Model } from "./types.js";

/**
 * Redeems a deferred reply: the message that a `deferred` request (or a background response cut
 * off) ended with carries a {@link DeferredHandle}; this streams the real reply for it.
 *
 * - A resumed stream (OpenAI Responses background mode) emits the reply as it arrives, and
 *   reconnects after a dropped connection without losing or repeating a delta.
 * - A batch (Anthropic Message Batches, Gemini batch mode) is polled, and its reply is emitted all
 *   at once when the job ends.
 *
 * It waits, honouring the handle's `pollAfterMs`, until the job ends; until `options.maxWaitMs`
 * passes (the reply then ends `deferred` again, with a fresh handle); until the handle's
 * `expiresAt` passes (an `error` saying it expired); or until `options.signal` aborts (`aborted`;
 * the job is not cancelled). Never throws: a bad handle, an unknown api or an api that cannot
 * defer end the stream with an `error` message.
 *
 * @example
 * const placeholder = await complete(model, context, { deferred: true }); // stopReason "deferred"
 * const reply = streamDeferred(model, placeholder.deferred!);
 * for await (const event of reply) if (event.type === "text_delta") process.stdout.write(event.delta);
 * const message = await reply.result();
 */
export function streamDeferred<TApi extends Api>(model: Model<TApi>, handle: DeferredHandle, options?: DeferredFetchOptions): AssistantMessageEventStream {
	return guardedStream(model, options, () => {
		const provider = providerFor(model, "streamDeferred");
		assertDeferredHandle(model, handle, "streamDeferred");
		if (!provider.streamDeferred) throw new Error(`The "${model.api}" API cannot redeem deferred replies: its provider has no streamDeferred.`);
		return provider.streamDeferred(model, handle, options);
	});
}

/**
 * Like {@link streamDeferred}, resolving to the final message; never rejects. The default is one
 * status check (`maxWaitMs: 0`): a job still running comes back as a `deferred` message with a
 * fresh handle. Pass `maxWaitMs` (or `wait`) to wait longer. A Responses job is polled as a
 * response object here rather than streamed (`resume: "poll"`), unless `resume` says otherwise.
 *
 * @example
 * const message = await fetchDeferred(model, handle);
 * if (message.stopReason === "deferred") save(message.deferred); // still running: try later
 */
export async function fetchDeferred<TApi extends Api>(model: Model<TApi>, handle: DeferredHandle, options?: DeferredFetchOptions): Promise<AssistantMessage> {
	const waited = { resume: "poll" as const, ...options, maxWaitMs: options?.maxWaitMs ?? options?.wait ?? 0 };
	return finalMessage(streamDeferred(model, handle, waited));
}

/**
 * Cancels the job of a deferred reply, with one request. Idempotent: cancelling a job that
 * already ended, or was cancelled before, resolves too. Rejects (with an `ApiCallError`, never
 * holding the key) for a bad handle, an api that cannot cancel, or a request that fails otherwise.
 * The reply of a cancelled job, when fetched, is an `error` message saying it was cancelled.
 *
 * @example
 * await cancelDeferred(model, message.deferred!);
 */
export async function cancelDeferred<TApi extends Api>(model: Model<TApi>, handle: DeferredHandle, options?: DeferredCancelOptions): Promise<void> {
	const provider = providerFor(model, "cancelDeferred");
	assertDeferredHandle(model, handle, "cancelDeferred");
	if (!provider.cancelDeferred) throw new Error(`The "${model.api}" API cannot cancel deferred replies: its provider has no cancelDeferred.`);
	await provider.cancelDeferred(model, handle, options);
}
