import type { AssistantMessage, AssistantMessageEventSource, Context as LlmContext, Model, RetryInfo } from "@pi/ai";
import { type Attributes, type Context, context, type Link, type Span, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { GEN_AI, PI } from "./attributes.js";
import { finishReason, inputMessages, outputMessages, systemInstructions } from "./content.js";
import { providerName } from "./provider-name.js";
import { serverAddress } from "./server-address.js";
import type { Telemetry } from "./telemetry.js";

/** One model call to trace: what was asked, and where its span goes in the trace. */
export interface ModelCallRequest {
	model: Model<any>;
	/** The request's context; absent for a deferred reply being redeemed. */
	context?: LlmContext;
	maxTokens?: number;
	temperature?: number;
	/** The parent of the `chat` span. */
	parent: Context;
	/** Spans this call continues (the call that deferred the reply this one redeems). */
	links?: Link[];
	/** The provider's id of the deferred job this call redeems. */
	deferredId?: string;
	/** Told the final message and the span before the span ends. */
	onEnd?: (message: AssistantMessage, span: Span) => void;
}

/**
 * Runs `call` as one `chat {model}` span (kind CLIENT) in the GenAI conventions, and records the
 * two client metrics. The call runs inside the span's context, so spans of the HTTP request
 * nest under it; its stream is returned unchanged (no work per event). A retry becomes an event
 * of the span. With neither a recording tracer nor a meter, it only calls `call`.
 */
export function traceModelCall<S extends AssistantMessageEventSource | Promise<AssistantMessageEventSource>>(
	telemetry: Telemetry,
	request: ModelCallRequest,
	call: (onRetry: (info: RetryInfo) => void) => S,
	onRetry?: (info: RetryInfo) => void,
): S {
	const { model } = request;
	const { address, port } = serverAddress(model.baseUrl);
	const base: Attributes = {
		[GEN_AI.operationName]: "chat",
		[GEN_AI.providerName]: providerName(model.provider),
		[GEN_AI.requestModel]: model.id,
		[GEN_AI.serverAddress]: address,
		[GEN_AI.serverPort]: port,
	};
	const span = telemetry.tracer.startSpan(
		`chat ${model.id}`,
		{
			kind: SpanKind.CLIENT,
			links: request.links,
			attributes: { ...base, [GEN_AI.requestMaxTokens]: request.maxTokens, [GEN_AI.requestTemperature]: request.temperature, [PI.deferredId]: request.deferredId },
		},
		request.parent,
	);
	const recording = span.isRecording();
	if (!recording && !telemetry.metering) return call(onRetry ?? noRetryListener);
	if (recording && telemetry.captureContent && request.context) {
		span.setAttribute(GEN_AI.inputMessages, inputMessages(request.context));
		const instructions = systemInstructions(request.context);
		if (instructions) span.setAttribute(GEN_AI.systemInstructions, instructions);
	}
	const started = performance.now();
	const retried = (info: RetryInfo) => {
		span.addEvent("pi.retry", { "pi.retry.attempt": info.attempt, "pi.retry.delay_ms": info.delayMs, "http.response.status_code": info.status, "pi.retry.reason": info.reason });
		onRetry?.(info);
	};
	let returned: S;
	try {
		returned = context.with(trace.setSpan(request.parent, span), () => call(retried));
	} catch (error) {
		failed(telemetry, span, base, started, error);
		throw error;
	}
	Promise.resolve(returned)
		.then((source) => source.result())
		.then(
			(message) => finished(telemetry, span, base, started, message, request.onEnd),
			(error: unknown) => failed(telemetry, span, base, started, error),
		);
	return returned;
}

function noRetryListener(): void {}

function finished(telemetry: Telemetry, span: Span, base: Attributes, started: number, message: AssistantMessage, onEnd: ModelCallRequest["onEnd"]): void {
	const { usage } = message;
	const responseModel = message.responseModel ?? message.model;
	const inputTokens = usage.input + usage.cacheRead + usage.cacheWrite;
	const errorType = message.stopReason === "error" ? "_OTHER" : undefined;
	if (span.isRecording()) {
		span.setAttributes({
			[GEN_AI.responseModel]: responseModel,
			[GEN_AI.responseId]: message.responseId,
			[GEN_AI.responseFinishReasons]: [finishReason(message.stopReason)],
			[GEN_AI.usageInputTokens]: inputTokens,
			[GEN_AI.usageOutputTokens]: usage.output,
			[GEN_AI.usageCacheReadInputTokens]: usage.cacheRead,
			[GEN_AI.usageCacheCreationInputTokens]: usage.cacheWrite,
			[PI.costTotal]: usage.cost.total,
			[PI.stopReason]: message.stopReason,
			[PI.deferredId]: message.deferred?.id,
		});
		if (telemetry.captureContent) span.setAttribute(GEN_AI.outputMessages, outputMessages(message));
		if (message.stopReason === "aborted") span.setAttribute(PI.aborted, true);
		if (errorType) {
			span.setAttribute(GEN_AI.errorType, errorType);
			span.setStatus({ code: SpanStatusCode.ERROR, message: message.errorMessage });
		}
		onEnd?.(message, span);
	}
	span.end();
	if (!telemetry.metering) return;
	const attributes: Attributes = { ...base, [GEN_AI.responseModel]: responseModel };
	telemetry.operationDuration.record((performance.now() - started) / 1000, errorType ? { ...attributes, [GEN_AI.errorType]: errorType } : attributes);
	if (inputTokens > 0 || usage.output > 0) {
		telemetry.tokenUsage.record(inputTokens, { ...attributes, [GEN_AI.tokenType]: "input" });
		telemetry.tokenUsage.record(usage.output, { ...attributes, [GEN_AI.tokenType]: "output" });
	}
}

/** A stream function that broke its contract (threw or rejected): an error span, and the metric. */
function failed(telemetry: Telemetry, span: Span, base: Attributes, started: number, error: unknown): void {
	const errorType = error instanceof Error ? error.name : "_OTHER";
	if (span.isRecording()) {
		span.setAttribute(GEN_AI.errorType, errorType);
		span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
	}
	span.end();
	if (telemetry.metering) telemetry.operationDuration.record((performance.now() - started) / 1000, { ...base, [GEN_AI.errorType]: errorType });
}
