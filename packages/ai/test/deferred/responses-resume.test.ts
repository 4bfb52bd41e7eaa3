/**
 * OpenAI Responses background jobs, redeemed: `deferred: true` submits a background response and
 * ends `deferred` as soon as its id is known; `streamDeferred` resumes its event stream with
 * `GET /v1/responses/{id}?stream=true&starting_after=N`, reconnecting after every dropped
 * connection without losing or repeating a delta; `fetchDeferred` polls the response object.
 * The server emulates the API with the real recorded stream of a background response.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { streamOpenAIResponses } from "../../src/providers/openai-responses.js";
import { fetchDeferred, streamDeferred } from "../../src/stream-deferred.js";
import {
	assertEventProtocol,
	jsonResponse,
	loadFixture,
	recordEvents,
	type ReplayServer,
	type RouteRequest,
	type SseEventBytes,
	splitSseEvents,
	sseEventsResponse,
	startReplayServer,
} from "../../src/testing/index.js";
import type { AssistantMessage, DeferredHandle } from "../../src/types.js";
import { comparable, HELLO, KEY, responsesModel, streamedReply } from "./helpers.js";

const API = "openai-responses";
const EVENTS = splitSseEvents(loadFixture(API, "background-queued"));
const RESPONSE_ID = "resp_0da443d9ee8333600069950a0635d88196b2d9243b08e8cc01";
const sequenceOf = (event: SseEventBytes) => (event.json as { sequence_number: number }).sequence_number;
const FINISHED = (EVENTS.at(-1)?.json as { response: Record<string, unknown> }).response;

let server: ReplayServer;
let uninterrupted: AssistantMessage;
beforeAll(async () => {
	server = await startReplayServer();
	uninterrupted = await streamedReply(API, "background-queued");
});
afterAll(() => server.close());
beforeEach(() => server.reset());

/**
 * The job's endpoints: `POST /v1/responses` answers with `created` (the first events, or `EVENTS`
 * cut after `postDropAfter`); the resumed stream serves the events after `starting_after`, the
 * `k`-th connection dropping after `drops[k]` events (no entry: it runs to the end).
 */
function emulateJob(options: { postDropAfter?: number; drops?: number[] } = {}) {
	server.route("POST", "/v1/responses", sseEventsResponse(EVENTS, { dropAfter: options.postDropAfter }));
	return server.route("GET", "/v1/responses/{id}", (request: RouteRequest) => {
		if (request.params.id !== RESPONSE_ID) return jsonResponse(404, { error: { message: `No response with id ${request.params.id}` } });
		const after = Number(request.query.get("starting_after") ?? -1);
		return sseEventsResponse(
			EVENTS.filter((event) => sequenceOf(event) > after),
			{ dropAfter: options.drops?.[request.call] },
		);
	});
}

async function redeem(handle: DeferredHandle, options: Parameters<typeof streamDeferred>[2] = {}) {
	const recorded = await recordEvents(streamDeferred(responsesModel(server), handle, { apiKey: KEY, ...options }));
	const summary = assertEventProtocol(recorded);
	const deltas = recorded.events.flatMap((event) => (event.type === "text_delta" ? [event.delta] : [])).join("");
	return { message: summary.message, deltas, events: recorded.events };
}

describe("deferred: true on OpenAI Responses", () => {
	it("sends a background request and ends deferred once the response id is known", async () => {
		emulateJob();
		const recorded = await recordEvents(streamOpenAIResponses(responsesModel(server), HELLO, { apiKey: KEY, deferred: true }));
		expect(recorded.events.map((event) => event.type)).toEqual(["start", "done"]);
		const message = assertEventProtocol(recorded).message;
		expect(message.stopReason).toBe("deferred");
		expect(message.deferred).toEqual({
			provider: "openai",
			api: API,
			modelId: "gpt-5",
			id: RESPONSE_ID,
			data: { status: "queued", sequenceNumber: 0, resumeAfter: 0 },
		});
		expect(server.requests[0]?.json).toMatchObject({ background: true, stream: true });
	});
});

describe("streamDeferred on a background response", () => {
	const handle: DeferredHandle = { provider: "openai", api: API, modelId: "gpt-5", id: RESPONSE_ID, data: { status: "queued", sequenceNumber: 0, resumeAfter: 0 } };
	const resumed = EVENTS.filter((event) => sequenceOf(event) > 0);

	it("streams the reply after the cursor, identical to the uninterrupted stream", async () => {
		const routes = emulateJob();
		const { message, deltas } = await redeem(handle);
		expect(comparable(message)).toEqual(comparable(uninterrupted));
		expect(deltas).toBe("2 + 2 equals 4.");
		expect(routes.requests.map((request) => request.path)).toEqual([`/v1/responses/${RESPONSE_ID}?stream=true&starting_after=0`]);
	});

	it.each(resumed.map((_event, index) => index))("a connection dropped after %i events is resumed after the last one seen", async (dropAfter) => {
		const routes = emulateJob({ drops: [dropAfter] });
		const { message, deltas } = await redeem(handle);
		expect(comparable(message)).toEqual(comparable(uninterrupted));
		// Every delta once: the text the consumer saw is the final text.
		expect(deltas).toBe("2 + 2 equals 4.");
		const cursor = dropAfter === 0 ? 0 : sequenceOf(resumed[dropAfter - 1] as SseEventBytes);
		expect(routes.requests[1]?.query.get("starting_after")).toBe(String(cursor));
	});

	it("loses and repeats nothing when every connection drops after one event", async () => {
		const routes = emulateJob({ drops: resumed.map(() => 1) });
		const { message, deltas } = await redeem(handle, { maxRetries: 0 });
		expect(comparable(message)).toEqual(comparable(uninterrupted));
		expect(deltas).toBe("2 + 2 equals 4.");
		expect(routes.requests.map((request) => request.query.get("starting_after"))).toEqual(["0", ...resumed.slice(0, -1).map((event) => String(sequenceOf(event)))]);
	});

	it("skips events a server repeats after the cursor", async () => {
		server.route("GET", "/v1/responses/{id}", sseEventsResponse(EVENTS)); // ignores starting_after: sends everything
		const { message, deltas } = await redeem({ ...handle, data: { status: "in_progress", sequenceNumber: 2, resumeAfter: 2 } });
		expect(comparable(message)).toEqual(comparable(uninterrupted));
		expect(deltas).toBe("2 + 2 equals 4.");
	});

	it("answers a handle of an unknown response with the provider's error", async () => {
		emulateJob();
		const { message } = await redeem({ ...handle, id: "resp_unknown" });
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain("No response with id resp_unknown");
	});
});

describe("a background stream that drops, then is redeemed", () => {
	// From after the first event (the id is known) to just before the terminal one.
	const cuts = EVENTS.slice(1, -1).map((_event, index) => index + 1);

	it.each(cuts)("POST cut after %i events: the redeemed reply is the whole one", async (cut) => {
		emulateJob({ postDropAfter: cut });
		const placeholder = await streamOpenAIResponses(responsesModel(server), HELLO, { apiKey: KEY, background: true }).result();
		expect(placeholder.stopReason).toBe("deferred");
		const { message } = await redeem(placeholder.deferred as DeferredHandle);
		expect(comparable(message)).toEqual(comparable(uninterrupted));
	});
});

describe("fetchDeferred polls the response object", () => {
	const handle: DeferredHandle = { provider: "openai", api: API, modelId: "gpt-5", id: RESPONSE_ID, pollAfterMs: 5, data: { status: "queued", sequenceNumber: 0, resumeAfter: 0 } };
	const running = { ...FINISHED, status: "in_progress", output: [], usage: null };

	it("makes one status check by default; a job still running comes back deferred with a fresh handle", async () => {
		const routes = server.route("GET", "/v1/responses/{id}", jsonResponse(200, running));
		const message = await fetchDeferred(responsesModel(server), handle, { apiKey: KEY });
		expect(routes.requests.map((request) => request.path)).toEqual([`/v1/responses/${RESPONSE_ID}`]);
		expect(message.stopReason).toBe("deferred");
		expect(message.deferred).toEqual({ ...handle, data: { ...(handle.data as object), status: "in_progress" } });
	});

	it("converts the finished object into the message the stream gives", async () => {
		const routes = server.route("GET", "/v1/responses/{id}", [jsonResponse(200, running), jsonResponse(200, running), jsonResponse(200, FINISHED)]);
		const message = await fetchDeferred(responsesModel(server), handle, { apiKey: KEY, maxWaitMs: 60_000 });
		expect(routes.requests).toHaveLength(3);
		expect(comparable(message)).toEqual(comparable(uninterrupted));
	});
});
