import { context } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { AggregationTemporality, MeterProvider, MetricReader, type ResourceMetrics } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";

// What an app does once at start-up: a context manager, so that the active span follows async code.
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());

/** A metric reader that exports on demand. */
class OnDemandReader extends MetricReader {
	constructor() {
		super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
	}
	protected async onForceFlush(): Promise<void> {}
	protected async onShutdown(): Promise<void> {}
}

/** The real OpenTelemetry SDK with in-memory exporters, not registered globally. */
export function otelSdk() {
	const exporter = new InMemorySpanExporter();
	const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
	const reader = new OnDemandReader();
	const meterProvider = new MeterProvider({ readers: [reader] });
	return {
		tracer: tracerProvider.getTracer("test"),
		meter: meterProvider.getMeter("test"),
		spans: (): ReadableSpan[] => exporter.getFinishedSpans(),
		async metrics(): Promise<ResourceMetrics> {
			const { resourceMetrics } = await reader.collect();
			return resourceMetrics;
		},
		async shutdown() {
			await tracerProvider.shutdown();
			await meterProvider.shutdown();
		},
	};
}

/** The span named `name`, or an error listing the names there are. */
export function spanNamed(spans: ReadableSpan[], name: string, index = 0): ReadableSpan {
	const found = spans.filter((span) => span.name === name)[index];
	if (!found) throw new Error(`no span "${name}" #${index}; spans: ${spans.map((span) => span.name).join(", ")}`);
	return found;
}

/** The id of a span's parent, or undefined for a root. */
export function parentOf(span: ReadableSpan): string | undefined {
	return span.parentSpanContext?.spanId;
}
