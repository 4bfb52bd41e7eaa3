/**
 * Test helpers for the openai-responses provider: a model pointed at a local replay server, a
 * minimal context, and a runner that replays a capture and records the events.
 */
import { streamOpenAIResponses, streamSimpleOpenAIResponses } from "../../../src/providers/openai-responses.js";
import type { OpenAIResponsesOptions } from "../../../src/providers/openai-responses/options.js";
import { loadFixture, type RecordedEvents, type ReplayServer, recordEvents, sseResponse } from "../../../src/testing/index.js";
import type { Context, Model, SimpleStreamOptions } from "../../../src/types.js";

export const API = "openai-responses";
export const TEST_KEY = "sk-test-responses-0123456789";

/** An OpenAI Responses model whose `baseUrl` is the replay server. Prices make cost checks meaningful. */
export function responsesModel(server: { url: string } | string, overrides: Partial<Model<"openai-responses">> = {}): Model<"openai-responses"> {
	return {
		id: "gpt-5",
		name: "GPT-5 (test)",
		api: "openai-responses",
		provider: "openai",
		baseUrl: `${typeof server === "string" ? server : server.url}/v1`,
		reasoning: true,
		input: ["text", "image"],
		cost: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
		contextWindow: 400_000,
		maxTokens: 128_000,
		...overrides,
	};
}

export function userContext(text = "Hello"): Context {
	return { messages: [{ role: "user", content: text, timestamp: 1 }] };
}

/** Enqueues a capture cut into random chunks (by `seed`), streams it and records every event. */
export async function replayFixture(
	server: ReplayServer,
	name: string,
	options: OpenAIResponsesOptions = {},
	seed = 1,
	model: Model<"openai-responses"> = responsesModel(server),
): Promise<RecordedEvents> {
	server.enqueue(sseResponse(loadFixture(API, name), { chunking: { seed, minChunkBytes: 1, maxChunkBytes: 97 } }));
	return recordEvents(streamOpenAIResponses(model, userContext(), { apiKey: TEST_KEY, ...options }));
}

/** The body of the last request the server received, parsed. */
export function lastBody(server: ReplayServer): Record<string, unknown> {
	const request = server.requests[server.requests.length - 1];
	if (!request) throw new Error("no request was recorded");
	return request.json as Record<string, unknown>;
}

/** What one call sent: the request body, the headers (names lower-cased) and the path. */
export interface CapturedRequest {
	body: Record<string, unknown>;
	headers: Record<string, string>;
	path: string;
}

/**
 * Answers one request with the `text-basic` capture and returns what the provider sent. `call`
 * picks the stream function (full options by default).
 */
export async function captureRequest(
	server: ReplayServer,
	context: Context,
	options: OpenAIResponsesOptions & SimpleStreamOptions = {},
	model: Model<"openai-responses"> = responsesModel(server),
	call: "stream" | "streamSimple" = "stream",
): Promise<CapturedRequest> {
	server.enqueue(sseResponse(loadFixture(API, "text-basic")));
	const fn = call === "stream" ? streamOpenAIResponses : streamSimpleOpenAIResponses;
	const message = await fn(model, context, { apiKey: TEST_KEY, ...options }).result();
	if (message.stopReason !== "stop") throw new Error(`request failed: ${message.errorMessage}`);
	const request = server.requests[server.requests.length - 1];
	if (!request) throw new Error("no request was recorded");
	return { body: request.json as Record<string, unknown>, headers: request.headers, path: request.path };
}

/** The byte offset just after the `count`-th complete SSE event of a capture (events end with a blank line). */
export function offsetAfterEvents(bytes: Uint8Array, count: number): number {
	const text = Buffer.from(bytes).toString("latin1");
	let offset = 0;
	for (let i = 0; i < count; i++) {
		const next = text.indexOf("\n\n", offset);
		if (next < 0) throw new Error(`the capture has fewer than ${count} events`);
		offset = next + 2;
	}
	return offset;
}
