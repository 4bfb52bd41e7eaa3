/**
 * `@pi/otel`: OpenTelemetry traces and metrics for `@pi/agent-core` runs and `@pi/ai` model
 * calls, in the GenAI semantic conventions. Spans and metrics go to the app's registered
 * providers (or those passed in); with none registered, nothing is recorded.
 *
 * @packageDocumentation
 */
export { GEN_AI, GEN_AI_METRICS, PI } from "./attributes.js";
export { type TraceAgentOptions, traceAgent } from "./trace-agent.js";
export { type TraceableStreamFn, traceStreamFn } from "./trace-stream-fn.js";
export type { TelemetryOptions } from "./telemetry.js";
