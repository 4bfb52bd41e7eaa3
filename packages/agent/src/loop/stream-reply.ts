import { type AssistantMessage, type AssistantMessageEvent, type AssistantMessageEventSource, type Context, type Message, streamDeferred } from "@pi/ai";
import { modelForHandle } from "./redeem-deferred.js";
import { ABORTED_TEXT, emptyAssistantMessage, endPartialReply, INTERRUPTED_TEXT } from "./assistant-messages.js";
import type { LoopRun, ReplyInFlight } from "./loop-run-state.js";
import { guard, RunFailure } from "./run-failure.js";
import { untilAborted } from "./until-aborted.js";

/** How a model call ended. */
export type ReplyOutcome =
	/** The reply ended (any stop reason); it is in the transcript. `interrupted`: cut short by `interrupt`. */
	| { kind: "reply"; message: AssistantMessage; interrupted: boolean }
	/** An interrupt came before the model was called: nothing was sent, nothing was added. */
	| { kind: "interrupted-before-call" };

/**
 * One model call: `transformContext`, then `convertToLlm`, then `getApiKey`, then the stream
 * function; streams the reply as `message_start`/`message_update`/`message_end` and appends the
 * final message to the transcript.
 *
 * - Aborting the run's signal ends the reply at once as `aborted`, keeping what streamed, even
 *   when the stream function ignores the signal.
 * - `config.onReplyStart` gets an `interrupt` that does the same for this reply only.
 * - A throw from a callback or from an event listener propagates as a `RunFailure`; the reply
 *   in flight is left in `run.reply` for the failure handler to end.
 * - With `placeholder` (a deferred reply the transcript ends with), the reply is not asked of
 *   the model but redeemed: `config.streamDeferred` (default `streamDeferred` of `@pi/ai`)
 *   streams it from the placeholder's handle, with the usual events, and the final message
 *   takes the placeholder's place (`message_end` says so with `replaces`). An aborted
 *   redemption keeps the handle on its message, so that it can be redeemed again; nothing is
 *   cancelled.
 */
export async function streamReply(run: LoopRun, placeholder?: AssistantMessage): Promise<ReplyOutcome> {
	const { config } = run;
	const controller = new AbortController();
	let interrupted = false;
	const interrupt = () => {
		if (interrupted) return;
		interrupted = true;
		controller.abort(new Error(INTERRUPTED_TEXT));
	};
	const forwardAbort = () => controller.abort(run.signal?.reason);
	if (run.aborted) forwardAbort();
	else run.signal?.addEventListener("abort", forwardAbort, { once: true });
	const reply: ReplyInFlight = { controller, partial: undefined, started: false };
	run.reply = reply;
	let dispose: (() => void) | void = undefined;
	try {
		dispose = await guard("onReplyStart", () => config.onReplyStart?.(interrupt));
		// Stop waiting at once on abort or interrupt, even for callbacks that ignore the signal.
		// A redemption sends no context: only its key is needed.
		const prepared = await untilAborted(placeholder ? prepareKey(run) : prepare(run, controller.signal), controller.signal);
		if (interrupted && !run.aborted) return { kind: "interrupted-before-call" };
		if (prepared.aborted || controller.signal.aborted) {
			// Aborted while preparing: no model call; the abort still shows as the turn's reply.
			return finish(run, reply, emptyAssistantMessage(config.model, "aborted", ABORTED_TEXT), false, placeholder);
		}
		const { llmMessages, apiKey } = prepared.value;
		const context: Context = { systemPrompt: run.context.systemPrompt, messages: llmMessages };
		if (run.context.tools) context.tools = run.context.tools;
		let returned: ReturnType<typeof run.streamFn>;
		try {
			if (placeholder?.deferred) {
				const redeem = config.streamDeferred ?? streamDeferred;
				const handle = placeholder.deferred;
				returned = redeem(modelForHandle(config.model, handle), handle, {
					apiKey,
					signal: controller.signal,
					maxRetryDelayMs: run.streamOptions.maxRetryDelayMs,
					headers: run.streamOptions.headers,
					output: run.streamOptions.output,
				});
			} else {
				returned = run.streamFn(config.model, context, { ...run.streamOptions, apiKey, signal: controller.signal });
			}
		} catch (error) {
			throw new RunFailure(placeholder ? "streamDeferred" : "streamFn", error);
		}
		let stream: unknown = returned;
		if (isThenable(returned)) {
			// An async stream function: stop waiting for it on abort. A stream returned at once is
			// always read, even if the reply was aborted meanwhile: it holds what streamed.
			const started = await untilAborted(guard("streamFn", () => Promise.resolve(returned)), controller.signal);
			if (started.aborted) {
				if (interrupted && !run.aborted) return { kind: "interrupted-before-call" };
				return finish(run, reply, emptyAssistantMessage(config.model, "aborted", ABORTED_TEXT), false, placeholder);
			}
			stream = started.value;
		}
		if (!isEventStream(stream)) throw new RunFailure(placeholder ? "streamDeferred" : "streamFn", new TypeError("it did not return an event stream"));
		const message = await consume(run, reply, stream);
		const wasInterrupted = interrupted && !run.aborted && message.stopReason === "aborted";
		if (wasInterrupted) message.errorMessage = INTERRUPTED_TEXT;
		return finish(run, reply, message, wasInterrupted, placeholder);
	} finally {
		run.signal?.removeEventListener("abort", forwardAbort);
		if (typeof dispose === "function") {
			try {
				dispose();
			} catch {
				// The cleanup of `onReplyStart` has nothing left to affect; the reply is over.
			}
		}
	}
}

/** `transformContext`, then `convertToLlm`, then `getApiKey`: what one model call needs. */
async function prepare(run: LoopRun, signal: AbortSignal): Promise<{ llmMessages: Message[]; apiKey: string | undefined }> {
	const { config } = run;
	const transformContext = config.transformContext;
	const messages = transformContext
		? await guard("transformContext", () => transformContext(run.context.messages, signal))
		: run.context.messages;
	const llmMessages = await guard("convertToLlm", () => config.convertToLlm(messages));
	if (!Array.isArray(llmMessages)) throw new RunFailure("convertToLlm", new TypeError("it did not return an array"));
	const getApiKey = config.getApiKey;
	const apiKey = (getApiKey ? await guard("getApiKey", () => getApiKey(config.model.provider)) : undefined) ?? config.apiKey;
	return { llmMessages, apiKey };
}

/** The key of a redemption: `getApiKey`, else the configured key. */
async function prepareKey(run: LoopRun): Promise<{ llmMessages: Message[]; apiKey: string | undefined }> {
	const { config } = run;
	const getApiKey = config.getApiKey;
	const apiKey = (getApiKey ? await guard("getApiKey", () => getApiKey(config.model.provider)) : undefined) ?? config.apiKey;
	return { llmMessages: [], apiKey };
}

/**
 * Appends the final message (or, redeeming, puts it in the placeholder's place) and emits its
 * `message_start` (if not yet) and `message_end`.
 */
async function finish(
	run: LoopRun,
	reply: ReplyInFlight,
	message: AssistantMessage,
	interrupted: boolean,
	placeholder?: AssistantMessage,
): Promise<ReplyOutcome> {
	// An aborted redemption keeps the handle: the job runs on, and a later continue() redeems it.
	if (placeholder?.deferred && message.stopReason === "aborted" && !message.deferred) message.deferred = placeholder.deferred;
	run.turnMessage = message;
	if (!reply.started) {
		reply.started = true;
		reply.partial = message;
		await run.events.emit({ type: "message_start", message });
	}
	if (placeholder) run.replace(placeholder, message);
	else run.append(message);
	run.reply = undefined;
	await run.events.emit(placeholder ? { type: "message_end", message, replaces: placeholder } : { type: "message_end", message });
	return { kind: "reply", message, interrupted };
}

const ABORTED = Symbol("aborted");

/**
 * Reads the reply's events until its terminal event, emitting `message_start` and
 * `message_update`s. Returns the final message. Ends at once when the reply's signal aborts.
 */
async function consume(run: LoopRun, reply: ReplyInFlight, stream: AssistantMessageEventSource): Promise<AssistantMessage> {
	const signal = reply.controller.signal;
	const iterator = stream[Symbol.asyncIterator]();
	// One abort listener for the whole reply, waking whichever read is pending. (Racing each read
	// against one shared abort promise would pile a reaction on it per event.)
	let wake: ((value: typeof ABORTED) => void) | undefined;
	const onAbort = () => wake?.(ABORTED);
	signal.addEventListener("abort", onAbort, { once: true });
	try {
		while (true) {
			if (signal.aborted) return await endAborted(run, reply, stream);
			const next = iterator.next();
			const step = await new Promise<IteratorResult<AssistantMessageEvent> | typeof ABORTED>((resolve) => {
				wake = resolve;
				next.then(resolve, () => resolve({ done: true, value: undefined }));
			});
			wake = undefined;
			if (step === ABORTED) return await endAborted(run, reply, stream);
			if (step.done) return await stream.result();
			const event = step.value;
			if (event.type === "done") return event.message;
			if (event.type === "error") return event.error;
			reply.partial = event.partial;
			if (!reply.started) {
				reply.started = true;
				run.turnMessage = event.partial;
				await run.events.emit({ type: "message_start", message: event.partial });
				if (event.type === "start") continue;
			}
			if (event.type === "start") continue; // a second start would break the protocol; skip it
			await run.events.emit({ type: "message_update", message: event.partial, assistantMessageEvent: event });
		}
	} finally {
		signal.removeEventListener("abort", onAbort);
	}
}

/**
 * The reply's final message after an abort: the stream's own when it already ended (a provider
 * that honours the signal ends it synchronously), else the partial so far, ended as `aborted`.
 */
async function endAborted(run: LoopRun, reply: ReplyInFlight, stream: AssistantMessageEventSource): Promise<AssistantMessage> {
	// `isDone` is @pi/ai's own stream class; a user's stream without it is treated as still running.
	if ((stream as { isDone?: unknown }).isDone === true) return stream.result();
	return reply.partial
		? endPartialReply(reply.partial, "aborted", ABORTED_TEXT)
		: emptyAssistantMessage(run.config.model, "aborted", ABORTED_TEXT);
}

function isEventStream(value: unknown): value is AssistantMessageEventSource {
	const candidate = value as Partial<AssistantMessageEventSource> | null | undefined;
	return typeof candidate?.[Symbol.asyncIterator] === "function" && typeof candidate.result === "function";
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
	return typeof (value as { then?: unknown } | null | undefined)?.then === "function";
}
