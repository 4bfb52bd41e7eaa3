/**
 * Every request of the package goes through the one HTTP seam and honours the same transport
 * options: a streamed reply, a deferred submission, a status check, a results download, a
 * resumed stream and a cancel alike. Each kind meets a real local server that accepts the
 * connection and never answers, one that stalls in the middle of the body, one that fails
 * (a retryable 503, then a 418 quoting the key), and an abort.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { stream } from "../../src/stream.js";
import { cancelDeferred, fetchDeferred, streamDeferred } from "../../src/stream-deferred.js";
import { jsonResponse, type ReplayServer, type ScriptedResponse, sseResponse, startReplayServer, textResponse } from "../../src/testing/index.js";
import type { Api, DeferredFetchOptions, DeferredHandle, Model, ProviderResponse, RetryInfo } from "../../src/types.js";
import { anthropicModel, geminiModel, HELLO, KEY, responsesModel } from "../deferred/helpers.js";

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

/** The transport options every request takes. */
type Transport = Pick<DeferredFetchOptions, "apiKey" | "headers" | "signal" | "maxRetries" | "timeoutMs" | "idleTimeoutMs" | "onRetry" | "onResponse">;

/** How a request ended, whatever its kind: a final message, or a cancel that resolved or rejected. */
interface Outcome {
	stopReason: string;
	errorMessage?: string;
}

interface RequestKind {
	name: string;
	model: () => Model<Api>;
	/** The request under test: its method and route. */
	method: "GET" | "POST";
	path: string;
	/** Whether it reads an event stream (its healthy body is SSE). */
	sse?: boolean;
	/** Routes that answer the requests made before it (a status check before a download). */
	before?: () => void;
	run: (options: Transport) => Promise<Outcome>;
}

const ANTHROPIC_BATCH = "msgbatch_seam";
const anthropicHandle: DeferredHandle = { provider: "anthropic", api: "anthropic-messages", modelId: "claude-sonnet-4-20250514", id: ANTHROPIC_BATCH, data: { customId: "pi-1" } };
const geminiHandle: DeferredHandle = { provider: "google", api: "google-generative-ai", modelId: "gemini-2.5-flash", id: "batches/42", data: { key: "pi-1" } };
const responsesHandle: DeferredHandle = { provider: "openai", api: "openai-responses", modelId: "gpt-5", id: "resp_seam", data: { status: "queued" } };

const streamed = (model: () => Model<Api>) => async (options: Transport) => stream(model(), HELLO, { ...options, deferred: true }).result();
const fetched = (model: () => Model<Api>, handle: DeferredHandle) => async (options: Transport) => fetchDeferred(model(), handle, options);
const cancelled = (model: () => Model<Api>, handle: DeferredHandle) => async (options: Transport) =>
	cancelDeferred(model(), handle, options).then(
		(): Outcome => ({ stopReason: "stop" }),
		(error: unknown): Outcome => ({ stopReason: options.signal?.aborted ? "aborted" : "error", errorMessage: error instanceof Error ? error.message : String(error) }),
	);

const kinds: RequestKind[] = [
	{ name: "Responses: the streamed submission", model: () => responsesModel(server), method: "POST", path: "/v1/responses", sse: true, run: streamed(() => responsesModel(server)) },
	{
		name: "Responses: the resumed stream",
		model: () => responsesModel(server),
		method: "GET",
		path: "/v1/responses/{id}",
		sse: true,
		run: async (options) => streamDeferred(responsesModel(server), responsesHandle, { ...options, resume: "stream" }).result(),
	},
	{ name: "Responses: a status check", model: () => responsesModel(server), method: "GET", path: "/v1/responses/{id}", run: fetched(() => responsesModel(server), responsesHandle) },
	{ name: "Responses: a cancel", model: () => responsesModel(server), method: "POST", path: "/v1/responses/{id}/cancel", run: cancelled(() => responsesModel(server), responsesHandle) },
	{ name: "Anthropic: the batch submission", model: () => anthropicModel(server), method: "POST", path: "/v1/messages/batches", run: streamed(() => anthropicModel(server)) },
	{ name: "Anthropic: a status check", model: () => anthropicModel(server), method: "GET", path: "/v1/messages/batches/{id}", run: fetched(() => anthropicModel(server), anthropicHandle) },
	{
		name: "Anthropic: the results download",
		model: () => anthropicModel(server),
		method: "GET",
		path: "/v1/messages/batches/{id}/results",
		before: () => {
			server.route(
				"GET",
				"/v1/messages/batches/{id}",
				jsonResponse(200, { id: ANTHROPIC_BATCH, processing_status: "ended", results_url: `${server.url}/v1/messages/batches/${ANTHROPIC_BATCH}/results` }),
			);
		},
		run: fetched(() => anthropicModel(server), anthropicHandle),
	},
	{ name: "Anthropic: a cancel", model: () => anthropicModel(server), method: "POST", path: "/v1/messages/batches/{id}/cancel", run: cancelled(() => anthropicModel(server), anthropicHandle) },
	{ name: "Gemini: the batch submission", model: () => geminiModel(server), method: "POST", path: "/v1beta/models/{model}:batchGenerateContent", run: streamed(() => geminiModel(server)) },
	{ name: "Gemini: a status check", model: () => geminiModel(server), method: "GET", path: "/v1beta/batches/{id}", run: fetched(() => geminiModel(server), geminiHandle) },
	{ name: "Gemini: a cancel", model: () => geminiModel(server), method: "POST", path: "/v1beta/batches/{id}:cancel", run: cancelled(() => geminiModel(server), geminiHandle) },
];

/** A healthy answer's first bytes, then nothing: the body of a server that stalls. */
function stallingBody(kind: RequestKind): ScriptedResponse {
	if (kind.sse) return sseResponse('data: {"type":"response.created","sequence_number":0,"response":{"id":"resp_seam","status":"queued"', { stallAfterBytes: 20 });
	return { ...jsonResponse(200, { id: "job", processing_status: "in_progress", status: "in_progress" }), stallAfterBytes: 10 };
}

describe.each(kinds)("$name", (kind) => {
	it("ends with a timeout error at timeoutMs when the server accepts and never answers", async () => {
		kind.before?.();
		const route = server.route(kind.method, kind.path, { status: 200, body: "", stallBeforeHeaders: true });
		const outcome = await kind.run({ apiKey: KEY, timeoutMs: 200, maxRetries: 2, idleTimeoutMs: 60_000 });
		// The deadline is final: never retried. (On a loaded machine it may pass before the request arrives.)
		expect(route.requests.length).toBeLessThanOrEqual(1);
		expect(outcome.stopReason).toBe("error");
		expect(outcome.errorMessage).toMatch(/timeoutMs/);
		expect(outcome.errorMessage).not.toMatch(/idle/i);
	});

	it("ends with a timeout error at timeoutMs when the server stalls in the middle of the body", async () => {
		kind.before?.();
		const route = server.route(kind.method, kind.path, stallingBody(kind));
		const outcome = await kind.run({ apiKey: KEY, timeoutMs: 200, maxRetries: 2, idleTimeoutMs: 60_000 });
		expect(route.requests.length).toBeLessThanOrEqual(1);
		expect(outcome.stopReason).toBe("error");
		expect(outcome.errorMessage).toMatch(/timeoutMs/);
	});

	it("sends the headers, retries, tells onRetry and onResponse (with the model), and keeps the key out of the error", async () => {
		kind.before?.();
		const route = server.route(kind.method, kind.path, [
			textResponse(503, "busy", { "retry-after-ms": "0" }),
			jsonResponse(418, { error: { type: "teapot_error", message: `refused for ${KEY}` } }),
		]);
		const retries: RetryInfo[] = [];
		const responses: { response: ProviderResponse; model: Model<Api> }[] = [];
		const model = kind.model();
		const outcome = await kind.run({
			apiKey: KEY,
			headers: { "x-pi-seam": "yes" },
			maxRetries: 1,
			onRetry: (info) => void retries.push(info),
			onResponse: (response, from) => void responses.push({ response, model: from }),
		});
		expect(outcome.stopReason).toBe("error");
		expect(outcome.errorMessage).toMatch(/HTTP 418.*teapot_error: refused for/);
		expect(outcome.errorMessage).not.toContain(KEY);
		expect(route.requests.map((request) => request.headers["x-pi-seam"])).toEqual(["yes", "yes"]);
		expect(retries.map((retry) => retry.status)).toEqual([503]);
		expect(responses.slice(-2).map((entry) => entry.response.status)).toEqual([503, 418]);
		expect(responses.every((entry) => entry.model.id === model.id && entry.model.api === model.api)).toBe(true);
	});

	it("ends aborted when the signal aborts while the server holds the request", async () => {
		kind.before?.();
		const controller = new AbortController();
		const route = server.route(kind.method, kind.path, () => {
			controller.abort();
			return { status: 200, body: "", stallBeforeHeaders: true };
		});
		const outcome = await kind.run({ apiKey: KEY, signal: controller.signal, maxRetries: 0 });
		expect(route.requests).toHaveLength(1);
		expect(outcome.stopReason).toBe("aborted");
	});
});
