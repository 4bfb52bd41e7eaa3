import type { AssistantMessageBuilder } from "../assistant-message-builder.js";
import { getEnvApiKey } from "../env-api-keys.js";
import type { AssistantMessageEventStream } from "../event-stream.js";
import { transportOptions, type TransportOptions } from "../http/request-options.js";
import { createProviderStream } from "../provider-stream.js";
import type { Api, DeferredFetchOptions, DeferredHandle, Model } from "../types.js";
import { withDeferredPrices } from "./deferred-pricing.js";
import { assertDeferredHandle, pollJob, waitDeadline } from "./handle.js";

/** What every request of a redemption shares: the headers, the key to scrub, the transport options. */
export interface PollCall extends TransportOptions {
	headers: Record<string, string>;
	secrets: (string | undefined)[];
}

/** What one status check found: the finished job, or that it still runs; `status` is the job's status either way. */
export type PolledStatus<T> = { done: true; value: T; status?: string } | { done: false; status?: string };

/** How one API's deferred reply is redeemed by polling its job (Anthropic Message Batches, Gemini batch mode). */
export interface PolledJob<T> {
	/** The status a job has before the first check tells otherwise: a fresh handle's `rawStopReason`. */
	initialStatus: string;
	/** The headers of every request; throws (ending the reply with an `error`) when the handle or the key is unusable. */
	headers(handle: DeferredHandle, apiKey: string | undefined): Record<string, string>;
	/** One status check. */
	check(call: PollCall, handle: DeferredHandle): Promise<PolledStatus<T>>;
	/** Turns the finished job into the message, downloading its results if need be. */
	finish(builder: AssistantMessageBuilder, value: T, status: string, call: PollCall, handle: DeferredHandle): void | Promise<void>;
}

/**
 * Redeems a deferred reply of a polled API: checks the job by the rules of `pollJob` until it
 * ends, then lets `job.finish` emit the reply at once, priced as a batch (see
 * `withDeferredPrices`). When `maxWaitMs` passes first, the reply ends `deferred` again with a copy
 * of the handle and the job's latest status. Every request goes through the HTTP seam with the
 * caller's transport options. Never throws.
 */
export function streamPolledReply<T>(model: Model<Api>, handle: DeferredHandle, options: DeferredFetchOptions | undefined, job: PolledJob<T>): AssistantMessageEventStream {
	const apiKey = options?.apiKey ?? getEnvApiKey(model.provider);
	return createProviderStream(withDeferredPrices(model), { ...options, apiKey }, async (builder) => {
		assertDeferredHandle(model, handle, "streamDeferred");
		const call: PollCall = { headers: job.headers(handle, apiKey), secrets: [apiKey], ...transportOptions(options, model) };
		let status = job.initialStatus;
		const outcome = await pollJob<T>(handle, options, waitDeadline(options, Number.POSITIVE_INFINITY), async () => {
			const checked = await job.check(call, handle);
			if (checked.status !== undefined) status = checked.status;
			return checked.done ? { done: true, value: checked.value } : { done: false };
		});
		builder.setResponseId(handle.id);
		if (outcome.kind === "waiting") {
			builder.finish("deferred", { rawStopReason: status, deferred: structuredClone(handle) });
			return;
		}
		await job.finish(builder, outcome.value, status, call, handle);
	});
}
