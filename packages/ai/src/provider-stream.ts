import { AssistantMessageBuilder } from "./assistant-message-builder.js";
import type { AssistantMessageEventStream } from "./event-stream.js";
import type { Api, Model, StreamOptions } from "./types.js";

/**
 * Runs a provider's work behind the `StreamFunction` contract: returns the stream at once, and
 * guarantees it ends with exactly one terminal event whatever `run` does.
 *
 * - `run` receives a fresh {@link AssistantMessageBuilder}; `start` is already pushed.
 * - A throw or rejection from `run` ends the message with `error`, keeping its content.
 * - Aborting `options.signal` ends it with `aborted` at once, without waiting for `run`.
 * - If `run` returns without finishing the message, that is reported as an `error`.
 * - `options.apiKey` is scrubbed from every error message.
 * - With `options.output`, the builder reads the reply as structured output (an unusable
 *   `output` ends the stream with `error` before `run` is called).
 */
export function createProviderStream<TApi extends Api>(
	model: Model<TApi>,
	options: StreamOptions | undefined,
	run: (builder: AssistantMessageBuilder) => Promise<void>,
	stream?: AssistantMessageEventStream,
): AssistantMessageEventStream {
	const signal = options?.signal;
	const target = stream ?? adoptedStream;
	adoptedStream = undefined;
	const builder = new AssistantMessageBuilder(model, [options?.apiKey], target);
	if (options?.output !== undefined) {
		try {
			builder.expectOutput(options.output);
		} catch (error) {
			builder.fail(error);
			return builder.stream;
		}
	}
	if (signal?.aborted) {
		builder.fail(signal.reason, signal);
		return builder.stream;
	}
	const onAbort = () => builder.fail(signal?.reason, signal);
	signal?.addEventListener("abort", onAbort, { once: true });
	const settle = (error?: unknown) => {
		signal?.removeEventListener("abort", onAbort);
		if (!builder.isFinished) {
			builder.fail(error ?? new Error("The provider ended the stream without a stop reason."), signal);
		}
	};
	let running: Promise<void>;
	try {
		running = run(builder);
	} catch (error) {
		running = Promise.reject(error);
	}
	running.then(
		() => settle(),
		(error: unknown) => settle(error ?? new Error("The provider failed without a reason.")),
	);
	return builder.stream;
}

let adoptedStream: AssistantMessageEventStream | undefined;

/**
 * Calls `start` so that the first `createProviderStream` it makes, synchronously, pushes its
 * events straight into `stream` instead of a stream of its own. The lazy loader of built-in
 * providers uses it: it must return a stream before the provider module has loaded, and this
 * lets the provider fill that very stream, with no forwarding of events one tick late.
 * Returns what `start` returned; when that is not `stream` (a provider that does not use
 * `createProviderStream`), the caller forwards its events instead.
 */
export function adoptStream<T>(stream: AssistantMessageEventStream, start: () => T): T {
	adoptedStream = stream;
	try {
		return start();
	} finally {
		adoptedStream = undefined;
	}
}
