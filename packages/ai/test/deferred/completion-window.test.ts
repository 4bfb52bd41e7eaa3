/**
 * `deferred: { window }`, the longest completion window the app accepts. No API takes one in its
 * request, so it is checked before anything is sent: the batch APIs finish within 24 hours, so a
 * shorter window fails naming both; a Responses background job and a faux job start at once, so
 * every window holds; a window that is not a duration fails naming the option.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fauxAssistantMessage, registerFauxProvider } from "../../src/providers/faux.js";
import { complete } from "../../src/stream.js";
import { jsonResponse, loadFixture, type ReplayServer, splitSseEvents, sseEventsResponse, startReplayServer } from "../../src/testing/index.js";
import type { Api, Model } from "../../src/types.js";
import { anthropicModel, geminiModel, HELLO, KEY, responsesModel } from "./helpers.js";

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const batchApis: { api: string; model: () => Model<Api>; path: string; answer: unknown }[] = [
	{ api: "anthropic-messages", model: () => anthropicModel(server), path: "/v1/messages/batches", answer: { id: "msgbatch_1", processing_status: "in_progress" } },
	{
		api: "google-generative-ai",
		model: () => geminiModel(server),
		path: "/v1beta/models/{model}:batchGenerateContent",
		answer: { name: "batches/1", metadata: { state: "BATCH_STATE_PENDING" } },
	},
];

describe.each(batchApis)("$api (a batch API: 24 hours)", ({ api, model, path, answer }) => {
	it.each(["24h", "2d", "1440m"])("a window of %s holds: the batch is submitted", async (window) => {
		const submit = server.route("POST", path, jsonResponse(200, answer));
		const message = await complete(model(), HELLO, { apiKey: KEY, deferred: { window } });
		expect(message.stopReason).toBe("deferred");
		expect(submit.requests).toHaveLength(1);
	});

	it("a shorter window fails before anything is sent, naming the window and the API's", async () => {
		const submit = server.route("POST", path, jsonResponse(200, answer));
		const message = await complete(model(), HELLO, { apiKey: KEY, deferred: { window: "1h" } });
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe(
			`options.deferred.window is "1h", but the "${api}" API finishes a deferred request only within 24 h and takes no shorter window; pass a window of at least "24h", or send the request without deferred.`,
		);
		expect(submit.requests).toHaveLength(0);
	});

	it.each(["soon", "", "24", "-1h", "0h"])("a window of %j is not a duration: an error naming the option", async (window) => {
		const submit = server.route("POST", path, jsonResponse(200, answer));
		const message = await complete(model(), HELLO, { apiKey: KEY, deferred: { window } });
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/^options\.deferred\.window must be a duration such as "24h"/);
		expect(submit.requests).toHaveLength(0);
	});
});

describe("openai-responses (a background job starts at once)", () => {
	const events = splitSseEvents(loadFixture("openai-responses", "background-queued"));

	it("any well-formed window holds", async () => {
		const submit = server.route("POST", "/v1/responses", sseEventsResponse(events));
		const message = await complete(responsesModel(server), HELLO, { apiKey: KEY, deferred: { window: "1m" } });
		expect(message.stopReason).toBe("deferred");
		expect(submit.requests).toHaveLength(1);
	});

	it("a window that is not a duration fails before anything is sent", async () => {
		const submit = server.route("POST", "/v1/responses", sseEventsResponse(events));
		const message = await complete(responsesModel(server), HELLO, { apiKey: KEY, deferred: { window: "tomorrow" } });
		expect(message.errorMessage).toMatch(/^options\.deferred\.window must be a duration/);
		expect(submit.requests).toHaveLength(0);
	});
});

describe("the faux provider", () => {
	it("holds any well-formed window, and refuses one that is not a duration without taking the queued reply", async () => {
		const faux = registerFauxProvider();
		try {
			faux.setResponses([fauxAssistantMessage("later")]);
			const refused = await complete(faux.getModel(), HELLO, { deferred: { window: "whenever" } });
			expect(refused.errorMessage).toMatch(/^options\.deferred\.window must be a duration/);
			expect(faux.getPendingResponseCount()).toBe(1);
			expect((await complete(faux.getModel(), HELLO, { deferred: { window: "5m" } })).stopReason).toBe("deferred");
		} finally {
			faux.unregister();
		}
	});
});
