import { createNoopMeter, type Histogram, type Meter, metrics, type Tracer, trace } from "@opentelemetry/api";
import { GEN_AI_METRICS } from "./attributes.js";

/** The name under which spans and metrics of this package are recorded. */
export const INSTRUMENTATION_NAME = "@pi/otel";

/** Options shared by `traceAgent` and `traceStreamFn`. */
export interface TelemetryOptions {
	/** Default: the global tracer provider's tracer `@pi/otel` (what the app registered, or a no-op). */
	tracer?: Tracer;
	/** Default: the global meter provider's meter `@pi/otel`. */
	meter?: Meter;
	/**
	 * Record message contents (`gen_ai.input.messages`, `gen_ai.output.messages`,
	 * `gen_ai.system_instructions`, tool arguments and results). Default `false`: they may hold
	 * personal data. API keys are never recorded.
	 */
	captureContent?: boolean;
}

/** What a traced call records into, resolved once per run or call. */
export interface Telemetry {
	tracer: Tracer;
	tokenUsage: Histogram;
	operationDuration: Histogram;
	/** False when the meter is the API's no-op meter: then no metric work is done at all. */
	metering: boolean;
	captureContent: boolean;
}

// The conventions' advised bucket boundaries for the two histograms.
const TOKEN_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864];
const DURATION_BUCKETS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];

const instrumentsByMeter = new WeakMap<Meter, Pick<Telemetry, "tokenUsage" | "operationDuration" | "metering">>();
/** The class of the meter the API hands out while no meter provider is registered. */
const NOOP_METER_CLASS = createNoopMeter().constructor;

function instruments(meter: Meter): Pick<Telemetry, "tokenUsage" | "operationDuration" | "metering"> {
	let found = instrumentsByMeter.get(meter);
	if (!found) {
		found = {
			tokenUsage: meter.createHistogram(GEN_AI_METRICS.tokenUsage, {
				description: "Number of input and output tokens used.",
				unit: "{token}",
				advice: { explicitBucketBoundaries: TOKEN_BUCKETS },
			}),
			operationDuration: meter.createHistogram(GEN_AI_METRICS.operationDuration, {
				description: "GenAI operation duration.",
				unit: "s",
				advice: { explicitBucketBoundaries: DURATION_BUCKETS },
			}),
			metering: meter.constructor !== NOOP_METER_CLASS,
		};
		instrumentsByMeter.set(meter, found);
	}
	return found;
}

/**
 * The tracer, the instruments and the content switch for one run or call. The tracer given (or
 * the global proxy tracer) follows a provider registered later by itself; the global meter does
 * not, so it is taken afresh each time.
 */
export function resolveTelemetry(options: TelemetryOptions): Telemetry {
	const tracer = options.tracer ?? trace.getTracer(INSTRUMENTATION_NAME);
	const meter = options.meter ?? metrics.getMeter(INSTRUMENTATION_NAME);
	return { tracer, ...instruments(meter), captureContent: options.captureContent === true };
}
