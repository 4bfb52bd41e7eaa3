/**
 * `cancelDeferred` on each API: one request per call, and idempotent: cancelling a job that
 * already ended, or was cancelled before, resolves too (the API's "cannot cancel" answer), while
 * an unknown job rejects with the provider's message.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { cancelDeferred } from "../../src/stream-deferred.js";
import { jsonResponse, type ReplayServer, startReplayServer } from "../../src/testing/index.js";
import type { Api, DeferredHandle, Model } from "../../src/types.js";
import { anthropicModel, geminiModel, KEY, responsesModel } from "./helpers.js";

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

interface Case {
	api: string;
	model: () => Model<Api>;
	handle: DeferredHandle;
	path: string;
	done: unknown;
	/** What the API answers when the job can no longer be cancelled. */
	over: ReturnType<typeof jsonResponse>;
}

const cases: Case[] = [
	{
		api: "openai-responses",
		model: () => responsesModel(server),
		handle: { provider: "openai", api: "openai-responses", modelId: "gpt-5", id: "resp_1" },
		path: "/v1/responses/{id}/cancel",
		done: { id: "resp_1", object: "response", status: "cancelled", background: true },
		over: jsonResponse(400, { error: { message: "Cannot cancel a completed response.", type: "invalid_request_error", code: null } }),
	},
	{
		api: "anthropic-messages",
		model: () => anthropicModel(server),
		handle: { provider: "anthropic", api: "anthropic-messages", modelId: "claude-sonnet-4-20250514", id: "msgbatch_1", data: { customId: "pi-1" } },
		path: "/v1/messages/batches/{id}/cancel",
		done: { id: "msgbatch_1", type: "message_batch", processing_status: "canceling" },
		over: jsonResponse(409, { type: "error", error: { type: "invalid_request_error", message: "Batch msgbatch_1 has already ended." } }),
	},
	{
		api: "google-generative-ai",
		model: () => geminiModel(server),
		handle: { provider: "google", api: "google-generative-ai", modelId: "gemini-2.5-flash", id: "batches/42", data: { key: "pi-1" } },
		path: "/v1beta/batches/{id}:cancel",
		done: {},
		over: jsonResponse(400, { error: { code: 400, message: "Batch batches/42 is already in a terminal state.", status: "FAILED_PRECONDITION" } }),
	},
];

describe.each(cases)("cancelDeferred on $api", ({ model, handle, path, done, over }) => {
	it("sends one cancel request per call, with the key", async () => {
		const route = server.route("POST", path, jsonResponse(200, done));
		await cancelDeferred(model(), handle, { apiKey: KEY });
		expect(route.requests).toHaveLength(1);
		expect(JSON.stringify(route.requests[0]?.headers)).toContain(KEY);
		await cancelDeferred(model(), handle, { apiKey: KEY });
		expect(route.requests).toHaveLength(2);
	});

	it("is idempotent: a job already over is not an error, and costs one request", async () => {
		const route = server.route("POST", path, [jsonResponse(200, done), over]);
		await cancelDeferred(model(), handle, { apiKey: KEY });
		await expect(cancelDeferred(model(), handle, { apiKey: KEY })).resolves.toBeUndefined();
		await expect(cancelDeferred(model(), handle, { apiKey: KEY })).resolves.toBeUndefined();
		expect(route.requests).toHaveLength(3);
	});

	it("rejects for an unknown job, with the provider's message and never the key", async () => {
		server.route("POST", path, jsonResponse(404, { error: { message: "No such job: nope" } }));
		const error = await cancelDeferred(model(), handle, { apiKey: KEY }).catch((caught: unknown) => caught as Error);
		expect(error).toBeInstanceOf(Error);
		expect(error?.message).toContain("No such job: nope");
		expect(error?.message).not.toContain(KEY);
	});
});
