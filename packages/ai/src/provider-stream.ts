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
 */
export function createProviderStream<TApi extends Api>(
	model: Model<TApi>,
	options: StreamOptions | undefined,
	run: (builder: AssistantMessageBuilder) => Promise<void>,
	stream?: AssistantMessageEventStream,
): AssistantMessageEventStream {
	const signal = options?.signal;
	const builder = new AssistantMessageBuilder(model, [options?.apiKey], stream);
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
