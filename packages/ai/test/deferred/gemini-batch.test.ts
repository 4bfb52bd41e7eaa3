/**
 * Gemini batch mode: `deferred: true` sends `POST models/{model}:batchGenerateContent` with one
 * inline request and a `metadata.key`; `streamDeferred` polls the `batches/{id}` operation through
 * its states until it is done and emits the inline response of our key at once, priced at half.
 * Failed, cancelled and expired batches, and an inline error, end as `error` messages with
 * Gemini's own text. The server emulates the API from its reference.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { streamGoogle } from "../../src/providers/google-generative-ai.js";
import { streamDeferred } from "../../src/stream-deferred.js";
import { assertEventProtocol, jsonResponse, recordEvents, type ReplayServer, startReplayServer } from "../../src/testing/index.js";
import type { DeferredHandle } from "../../src/types.js";
import { comparable, geminiModel, geminiResponseFromCapture, HELLO, KEY, streamedReply } from "./helpers.js";

const NAME = "batches/123456789";
let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const TYPE = "type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatch";
function operation(state: string, inlined?: unknown[], error?: unknown) {
	const done = !["BATCH_STATE_PENDING", "BATCH_STATE_RUNNING"].includes(state);
	return {
		name: NAME,
		metadata: { "@type": TYPE, model: "models/gemini-2.5-flash", displayName: "pi", state, name: NAME },
		...(done ? { done: true } : {}),
		...(error ? { error } : {}),
		...(inlined ? { response: { "@type": "type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatchOutput", inlinedResponses: { inlinedResponses: inlined } } } : {}),
	};
}

const handle = (key = "pi-key-1"): DeferredHandle => ({ provider: "google", api: "google-generative-ai", modelId: "gemini-2.5-flash", id: NAME, data: { key } });

async function redeem(h: DeferredHandle = handle()) {
	const recorded = await recordEvents(streamDeferred(geminiModel(server), h, { apiKey: KEY, pollIntervalMs: 1 }));
	return assertEventProtocol(recorded).message;
}

describe("deferred: true on Gemini", () => {
	it("sends one inline request with a key, and ends deferred with the batch name", async () => {
		const submit = server.route("POST", "/v1beta/models/{model}:batchGenerateContent", jsonResponse(200, operation("BATCH_STATE_PENDING")));
		const recorded = await recordEvents(streamGoogle(geminiModel(server), HELLO, { apiKey: KEY, deferred: true, temperature: 0 }));
		expect(recorded.events.map((event) => event.type)).toEqual(["start", "done"]);
		const message = assertEventProtocol(recorded).message;
		expect(submit.requests[0]?.params.model).toBe("gemini-2.5-flash");
		expect(submit.requests[0]?.headers["x-goog-api-key"]).toBe(KEY);
		const sent = submit.requests[0]?.json as { batch: { inputConfig: { requests: { requests: { request: Record<string, unknown>; metadata: { key: string } }[] } } } };
		const requests = sent.batch.inputConfig.requests.requests;
		expect(requests).toHaveLength(1);
		expect(requests[0]?.request).toMatchObject({ contents: [{ role: "user" }], generationConfig: { temperature: 0 } });
		expect(message.stopReason).toBe("deferred");
		expect(message.deferred).toEqual({ provider: "google", api: "google-generative-ai", modelId: "gemini-2.5-flash", id: NAME, data: { key: requests[0]?.metadata.key } });
	});
});

describe("streamDeferred on a Gemini batch", () => {
	it.each(["function-calls-parallel", "thinking-thought-summaries", "gemini3-text-trailing-signature"])(
		"%s: polls pending, running, succeeded and emits the streamed message, at half price",
		async (name) => {
			const other = { metadata: { key: "someone-else" }, response: geminiResponseFromCapture("text-basic") };
			const polls = server.route("GET", "/v1beta/batches/{id}", [
				jsonResponse(200, operation("BATCH_STATE_PENDING")),
				jsonResponse(200, operation("BATCH_STATE_RUNNING")),
				jsonResponse(200, operation("BATCH_STATE_SUCCEEDED", [other, { metadata: { key: "pi-key-1" }, response: geminiResponseFromCapture(name) }])),
			]);
			const message = await redeem();
			const streamed = await streamedReply("google-generative-ai", name);
			const strip = (m: typeof message) => {
				const { usage, ...rest } = comparable(m);
				for (const block of rest.content) if (block.type === "toolCall" && /_\d+_[0-9a-z]{8}$/.test(block.id)) block.id = block.name;
				return { rest, counts: { ...usage, cost: undefined }, total: usage.cost.total };
			};
			expect(strip(message).rest).toEqual(strip(streamed).rest);
			expect(strip(message).counts).toEqual(strip(streamed).counts);
			expect(strip(message).total).toBeCloseTo(strip(streamed).total / 2, 12);
			expect(polls.requests).toHaveLength(3);
			expect(polls.requests[0]?.headers["x-goog-api-key"]).toBe(KEY);
		},
	);

	it.each([
		["BATCH_STATE_FAILED", /failed/],
		["BATCH_STATE_CANCELLED", /cancelled/],
		["BATCH_STATE_EXPIRED", /expired/],
	])("%s is an error message with Gemini's text", async (state, words) => {
		server.route("GET", "/v1beta/batches/{id}", jsonResponse(200, operation(state, undefined, { code: 9, message: "Batch could not be completed.", status: "FAILED_PRECONDITION" })));
		const message = await redeem();
		expect(message.stopReason).toBe("error");
		expect(message.rawStopReason).toBe(state);
		expect(message.errorMessage).toMatch(words);
		expect(message.errorMessage).toContain("Batch could not be completed.");
	});

	it("an inline error response is an error message with its status and message", async () => {
		server.route("GET", "/v1beta/batches/{id}", jsonResponse(200, operation("BATCH_STATE_SUCCEEDED", [{ metadata: { key: "pi-key-1" }, error: { code: 400, message: "Request contains an invalid argument.", status: "INVALID_ARGUMENT" } }])));
		const message = await redeem();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe("The batch request failed: INVALID_ARGUMENT 400: Request contains an invalid argument.");
	});

	const file = JSON.stringify(operation("BATCH_STATE_SUCCEEDED", [{ metadata: { key: "pi-key-1" }, response: geminiResponseFromCapture("function-calls-parallel") }]));
	it.each([0, Math.floor(file.length / 3), file.length - 1])("a status answer dropped after %i bytes is fetched again", async (cut) => {
		const polls = server.route("GET", "/v1beta/batches/{id}", [{ ...jsonResponse(200, JSON.parse(file)), resetAfterBytes: cut }, jsonResponse(200, JSON.parse(file))]);
		const message = await redeem();
		expect(message.stopReason).toBe("toolUse");
		expect(polls.requests).toHaveLength(2);
	});
});
