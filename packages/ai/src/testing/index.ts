/**
 * `@pi/ai/testing`: test a provider, or an app built on `@pi/ai`, offline and deterministically.
 *
 * - {@link startReplayServer}: a real local HTTP server that replays scripted responses (recorded
 *   SSE bodies cut into awkward chunks, HTTP errors, resets, stalls, truncations) and records
 *   every request.
 *   Routes (`server.route`) script a whole endpoint family, e.g. a batch job from submission to
 *   results; {@link splitSseEvents} and {@link sseEventsResponse} cut recorded streams at events.
 * - {@link assertEventProtocol}: checks a recorded event sequence against every rule of the event
 *   protocol; {@link collectEvents} / {@link recordEvents} gather a stream's events.
 *
 * - {@link startRecorder}: a recording proxy that forwards to the real provider and writes each
 *   interaction to a cassette (a folder of plain files), or replays it; `startReplayServer({ cassette })`
 *   serves a cassette with recorded timing or random chunks, and faults on top.
 *
 * Importing this entry is cheap: `node:http` loads only when a server starts. See docs/testing.md.
 */
export {
	assertEventProtocol,
	EventProtocolError,
	type EventProtocolOptions,
	type EventProtocolRule,
	type EventProtocolSummary,
} from "./event-protocol.js";
export {
	type AssistantEventSource,
	type CollectedEvents,
	type CollectEventsOptions,
	collectEvents,
	type PartialState,
	type PushableEventSource,
	type RecordedEvents,
	recordEvents,
} from "./record-events.js";
export {
	type RecordedRequest,
	type ReplayChunking,
	type ReplayServer,
	type ReplayServerOptions,
	type ScriptedResponse,
	startReplayServer,
} from "./replay-server.js";
export { type ReplayRoute, type RouteHandle, type RouteRequest, type RouteResponder } from "./replay-routes.js";
export { joinSseEvents, type SseEventBytes, splitSseEvents, sseEventsResponse } from "./sse-events.js";
export { htmlError, jsonResponse, type ResponseExtras, sseResponse, textResponse } from "./scripted-responses.js";
export { type ChunkingOptions, splitIntoChunks } from "./split-into-chunks.js";
export { type CassetteFault, type CassetteOptions, type CassetteState, type CassetteTimingOptions, type FaultFields } from "./cassette-player.js";
export { type IgnoredFields, normaliseBody } from "./cassette-match.js";
export { isSecretRequestHeader, KEPT_REQUEST_HEADERS, REDACTED, SECRET_HEADERS, SECRET_QUERY_PARAMETERS } from "./cassette-secrets.js";
export { type CassetteRequest, CassetteError, type CassetteResponse, type Interaction, type RecordedChunk, readCassette, type ResponseEnding } from "./cassette-store.js";
export { type RecordedTiming } from "./recorded-timing.js";
export { type CassetteMode, type Recorder, type RecorderOptions, startRecorder } from "./recorder.js";
export { type FixtureFile, fixturePath, fixturesDir, listFixtures, loadFixture } from "./fixtures.js";
export { captureRequestBody, checkAnthropic, checkCompletions, checkGemini, checkResponses, REQUEST_RULE_TARGETS, type RequestRuleTarget } from "./request-rules.js";
