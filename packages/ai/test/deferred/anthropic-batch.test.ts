/**
 * Anthropic Message Batches: `deferred: true` sends the request as a batch of one with a
 * `custom_id`; `streamDeferred` polls the batch until `processing_status` is `ended`, reads the
 * `results_url` JSONL (rows in any order, other requests' rows mixed in), and emits the row's
 * message at once, priced at half. `errored`, `canceled` and `expired` rows become `error`
 * messages with the provider's text. The server emulates the API from its reference.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { streamAnthropic } from "../../src/providers/anthropic-messages.js";
import { streamDeferred } from "../../src/stream-deferred.js";
import { assertEventProtocol, jsonResponse, recordEvents, type ReplayServer, startReplayServer, textResponse } from "../../src/testing/index.js";
import type { DeferredHandle, TSchema } from "../../src/types.js";
import { anthropicMessageFromCapture, anthropicModel, comparable, HELLO, KEY, streamedReply } from "./helpers.js";

const BATCH_ID = "msgbatch_013Zva2CMHLNnXjNJJKqJ2EF";
const CREATED = "2026-12-01T18:37:24.100435Z";

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

function batch(status: "in_progress" | "canceling" | "ended") {
	return {
		id: BATCH_ID,
		type: "message_batch",
		processing_status: status,
		request_counts: { processing: status === "ended" ? 0 : 1, succeeded: status === "ended" ? 1 : 0, errored: 0, canceled: 0, expired: 0 },
		ended_at: status === "ended" ? "2026-12-01T18:50:00Z" : null,
		created_at: CREATED,
		expires_at: "2026-12-02T18:37:24.100435Z",
		cancel_initiated_at: null,
		results_url: status === "ended" ? `${server.url}/v1/messages/batches/${BATCH_ID}/results` : null,
	};
}

const handle = (customId = "pi-request-1"): DeferredHandle => ({
	provider: "anthropic",
	api: "anthropic-messages",
	modelId: "claude-sonnet-4-20250514",
	id: BATCH_ID,
	data: { customId },
});

/** A results file: our row among others, in no particular order. */
function resultsFile(ours: Record<string, unknown>, customId = "pi-request-1"): string {
	const other = (id: string) => ({ custom_id: id, result: { type: "succeeded", message: anthropicMessageFromCapture("text-basic") } });
	const rows = [other("someone-else-2"), { custom_id: customId, result: ours }, other("someone-else-1"), { custom_id: "x-3", result: { type: "expired" } }];
	return `${rows.map((row) => JSON.stringify(row)).join("\n")}\n`;
}

function emulateBatch(result: Record<string, unknown>, polls: ("in_progress" | "canceling" | "ended")[] = ["in_progress", "ended"]) {
	const status = server.route("GET", "/v1/messages/batches/{id}", polls.map((state) => jsonResponse(200, batch(state))));
	const results = server.route("GET", "/v1/messages/batches/{id}/results", textResponse(200, resultsFile(result), { "content-type": "application/binary" }));
	return { status, results };
}

async function redeem(h: DeferredHandle = handle()) {
	const recorded = await recordEvents(streamDeferred(anthropicModel(server), h, { apiKey: KEY, pollIntervalMs: 1 }));
	return { message: assertEventProtocol(recorded).message, events: recorded.events };
}

describe("deferred: true on Anthropic", () => {
	it("sends a batch of one with a custom_id, and ends deferred with the batch's handle", async () => {
		const submit = server.route("POST", "/v1/messages/batches", jsonResponse(200, batch("in_progress")));
		const recorded = await recordEvents(streamAnthropic(anthropicModel(server), HELLO, { apiKey: KEY, deferred: true, maxTokens: 100 }));
		expect(recorded.events.map((event) => event.type)).toEqual(["start", "done"]);
		const message = assertEventProtocol(recorded).message;
		const sent = submit.requests[0]?.json as { requests: { custom_id: string; params: Record<string, unknown> }[] };
		expect(sent.requests).toHaveLength(1);
		expect(sent.requests[0]?.custom_id).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
		expect(sent.requests[0]?.params).toMatchObject({ model: "claude-sonnet-4-20250514", max_tokens: 100, messages: [{ role: "user" }] });
		expect(sent.requests[0]?.params).not.toHaveProperty("stream");
		expect(submit.requests[0]?.headers["x-api-key"]).toBe(KEY);
		expect(message.stopReason).toBe("deferred");
		expect(message.deferred).toEqual({
			provider: "anthropic",
			api: "anthropic-messages",
			modelId: "claude-sonnet-4-20250514",
			id: BATCH_ID,
			expiresAt: Date.parse(CREATED) + 29 * 24 * 3600 * 1000,
			data: { customId: sent.requests[0]?.custom_id },
		});
	});
});

describe("streamDeferred on a Message Batch", () => {
	it("with `output`: the redeemed reply is parsed and validated as a streamed one is", async () => {
		const Book = {
			type: "object",
			properties: { title: { type: "string" }, author: { type: "object" }, rating: { type: "integer" } },
			required: ["title", "author", "rating"],
		} as unknown as TSchema;
		emulateBatch({ type: "succeeded", message: anthropicMessageFromCapture("structured-output") });
		const message = await streamDeferred(anthropicModel(server), handle(), { apiKey: KEY, pollIntervalMs: 1, output: { schema: Book } }).result();
		expect(message.stopReason).toBe("stop");
		expect(message.output).toEqual({ title: "THE NAME OF THE WIND", author: { first_name: "Patrick", last_name: "Rothfuss" }, rating: 7 });
	});


	it.each(["tool-use-parallel", "thinking-signature", "max-tokens"])("%s: finds our row among others and emits the streamed message, at half price", async (name) => {
		const routes = emulateBatch({ type: "succeeded", message: anthropicMessageFromCapture(name) }, ["in_progress", "canceling", "ended"]);
		const { message, events } = await redeem();
		const streamed = await streamedReply("anthropic-messages", name);
		const { usage: streamedUsage, ...rest } = comparable(streamed);
		const { usage, ...got } = comparable(message);
		expect(got).toEqual(rest);
		expect({ ...usage, cost: undefined }).toEqual({ ...streamedUsage, cost: undefined });
		expect(usage.cost.total).toBeCloseTo(streamedUsage.cost.total / 2, 12);
		expect(routes.status.requests).toHaveLength(3);
		expect(routes.results.requests[0]?.headers["x-api-key"]).toBe(KEY);
		// All at once: the whole reply arrives after the job ended, still as a proper event stream.
		expect(events[0]?.type).toBe("start");
	});

	it("uses the catalog's batch price when the model has one", async () => {
		emulateBatch({ type: "succeeded", message: anthropicMessageFromCapture("text-basic") }, ["ended"]);
		const model = { ...anthropicModel(server), batchCost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 } };
		const message = await streamDeferred(model, handle(), { apiKey: KEY }).result();
		expect(message.usage.cost.input).toBeCloseTo((message.usage.input * 1) / 1e6, 12);
		expect(message.usage.cost.output).toBeCloseTo((message.usage.output * 2) / 1e6, 12);
	});

	it("an errored row is an error message with the provider's text", async () => {
		emulateBatch({ type: "errored", error: { type: "error", error: { type: "invalid_request_error", message: "max_tokens: Field required" } } });
		const { message } = await redeem();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe("The batch request failed: invalid_request_error: max_tokens: Field required");
	});

	it("a canceled row is an error message saying so", async () => {
		emulateBatch({ type: "canceled" });
		const { message } = await redeem();
		expect(message.stopReason).toBe("error");
		expect(message.rawStopReason).toBe("canceled");
		expect(message.errorMessage).toMatch(/canceled/);
	});

	it("an expired row is an error message saying so", async () => {
		emulateBatch({ type: "expired" });
		const { message } = await redeem();
		expect(message.stopReason).toBe("error");
		expect(message.rawStopReason).toBe("expired");
		expect(message.errorMessage).toMatch(/expired/);
	});

	it("a results file without our row is an error naming the custom_id", async () => {
		emulateBatch({ type: "succeeded", message: anthropicMessageFromCapture("text-basic") });
		const { message } = await redeem(handle("pi-missing"));
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain("pi-missing");
	});

	const file = resultsFile({ type: "succeeded", message: anthropicMessageFromCapture("tool-use-parallel") });
	const rowEnds = [...file.matchAll(/\n/g)].map((match) => (match.index ?? 0) + 1);
	it.each([0, ...rowEnds.slice(0, -1)])("a results download dropped at byte %i is fetched again, giving the same message", async (cut) => {
		server.route("GET", "/v1/messages/batches/{id}", jsonResponse(200, batch("ended")));
		const results = server.route("GET", "/v1/messages/batches/{id}/results", [
			{ ...textResponse(200, file), resetAfterBytes: cut },
			textResponse(200, file),
		]);
		const { message } = await redeem();
		expect(comparable(message).content).toEqual(comparable(await streamedReply("anthropic-messages", "tool-use-parallel")).content);
		expect(results.requests).toHaveLength(2);
	});

	it("a status check dropped mid-answer is retried", async () => {
		const body = JSON.stringify(batch("ended"));
		server.route("GET", "/v1/messages/batches/{id}", [{ ...jsonResponse(200, batch("ended")), resetAfterBytes: Math.floor(body.length / 2) }, jsonResponse(200, batch("ended"))]);
		server.route("GET", "/v1/messages/batches/{id}/results", textResponse(200, file));
		const { message } = await redeem();
		expect(message.stopReason).toBe("toolUse");
	});
});
