import { type ApiProvider, getApiProvider } from "./api-registry.js";
import { AssistantMessageBuilder } from "./assistant-message-builder.js";
import { defineModel } from "./define-model.js";
import type { AssistantMessageEventStream } from "./event-stream.js";
import { ensureBuiltinApiProviders } from "./providers/register-builtins.js";
import type { Api, AssistantMessage, Model, OutputEventStream } from "./types.js";

/**
 * What the entry points (`stream`, `streamSimple`, `streamDeferred`, `cancelDeferred` and the
 * functions built on them) share: finding the provider of a model, and keeping the promise that
 * a stream entry point never throws.
 */

/**
 * The registered provider of `model.api`, the built-in ones registered first. Throws a
 * `TypeError` when `model` is not an object and an `Error` naming the api when no provider has
 * it; `where` (the entry point) starts the first message.
 */
export function providerFor(model: Model<Api>, where: string): ApiProvider {
	ensureBuiltinApiProviders();
	if (!model || typeof model !== "object") throw new TypeError(`${where}: \`model\` must be a Model object`);
	const provider = getApiProvider(model.api);
	if (!provider) throw new Error(`No API provider registered for api "${model.api}" (model "${model.id}").`);
	return provider;
}

/**
 * The stream `start` returns; when it throws, a stream that ends at once with that error (or as
 * `aborted`, when `options.signal` is), the key scrubbed from its message. So an entry point
 * built on it never throws, whatever its arguments.
 *
 * @example
 * return guardedStream(model, options, () => providerFor(model, "stream").stream(model, context, options));
 */
export function guardedStream(
	model: Model<Api>,
	options: { apiKey?: string; signal?: AbortSignal } | undefined,
	start: () => AssistantMessageEventStream,
): AssistantMessageEventStream {
	try {
		return start();
	} catch (error) {
		const builder = new AssistantMessageBuilder(model && typeof model === "object" ? model : unknownModel(), [options?.apiKey]);
		builder.fail(error, options?.signal);
		return builder.stream;
	}
}

/**
 * The final message of `events`, read to their end: iterating (rather than only awaiting the
 * result) releases each event as it is read. Typed by the stream's output (structured output).
 */
export async function finalMessage<TOutput = unknown>(events: OutputEventStream<TOutput>): Promise<AssistantMessage<TOutput>> {
	for await (const _event of events) {
		// nothing to do per event
	}
	return events.result();
}

/**
 * The model of the error message of an entry point called without a usable model: nothing is
 * ever sent to it (its `.invalid` address cannot resolve); the message names it `unknown`.
 */
function unknownModel(): Model<Api> {
	return defineModel({ id: "unknown", api: "unknown", provider: "unknown", baseUrl: "http://unknown.invalid" });
}
