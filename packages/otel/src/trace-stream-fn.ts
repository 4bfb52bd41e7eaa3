import { type AssistantMessageEventSource, type Context as LlmContext, type Model, type SimpleStreamOptions, streamSimple } from "@pi/ai";
import { context } from "@opentelemetry/api";
import { rememberDeferral } from "./deferred-links.js";
import { resolveTelemetry, type TelemetryOptions } from "./telemetry.js";
import { traceModelCall } from "./trace-model-call.js";

/** A stream function of the `streamSimple` shape, ours or the app's. */
export type TraceableStreamFn = (
	model: Model<any>,
	context: LlmContext,
	options?: SimpleStreamOptions,
) => AssistantMessageEventSource | Promise<AssistantMessageEventSource>;

/**
 * Wraps a stream function (default `streamSimple` from `@pi/ai`) so that each model call is a
 * `chat {model}` span, child of the span active where it is called, with the GenAI attributes,
 * usage, cost and retries, and the client metrics. The stream it returns is the wrapped
 * function's own, untouched. For apps that use `@pi/ai` without the agent; `traceAgent` does
 * this for an agent's calls.
 *
 * @example
 * ```ts
 * const stream = traceStreamFn(streamSimple, { captureContent: true });
 * const reply = await stream(model, { messages }).result();
 * ```
 */
export function traceStreamFn(streamFn?: undefined, options?: TelemetryOptions): typeof streamSimple;
export function traceStreamFn<F extends TraceableStreamFn>(streamFn: F, options?: TelemetryOptions): F;
export function traceStreamFn(streamFn?: TraceableStreamFn, options: TelemetryOptions = {}): TraceableStreamFn {
	const inner: TraceableStreamFn = streamFn ?? streamSimple;
	const traced: TraceableStreamFn = (model, llmContext, streamOptions) => {
		const telemetry = resolveTelemetry(options);
		return traceModelCall(
			telemetry,
			{ model, context: llmContext, maxTokens: streamOptions?.maxTokens, temperature: streamOptions?.temperature, parent: context.active(), onEnd: rememberDeferral },
			(onRetry) => inner(model, llmContext, { ...streamOptions, onRetry }),
			streamOptions?.onRetry,
		);
	};
	return traced;
}
