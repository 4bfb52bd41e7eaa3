/** Shared helpers of the google-generative-ai provider tests. */
import { streamGoogle, streamSimpleGoogle, type GoogleOptions } from "../../../src/providers/google-generative-ai.js";
import { type RecordedEvents, type ReplayServer, recordEvents, sseResponse } from "../../../src/testing/index.js";
import type { AssistantMessage, Context, Model, SimpleStreamOptions, ToolResultMessage } from "../../../src/types.js";

export const API = "google-generative-ai";
export const TEST_KEY = "test-gemini-key-0123456789";

/** A Gemini model pointed at `baseUrl` (the replay server), with catalog-like fields. */
export function geminiModel(id = "gemini-2.5-flash", overrides: Partial<Model<"google-generative-ai">> = {}): Model<"google-generative-ai"> {
	return {
		id,
		name: id,
		api: "google-generative-ai",
		provider: "google",
		baseUrl: "https://generativelanguage.googleapis.com/v1beta",
		reasoning: true,
		input: ["text", "image"],
		cost: { input: 0.3, output: 2.5, cacheRead: 0.075, cacheWrite: 0 },
		contextWindow: 1_048_576,
		maxTokens: 65_536,
		...overrides,
	};
}

/** `model` with its `baseUrl` on the replay server. */
export function onServer(server: ReplayServer, model: Model<"google-generative-ai"> = geminiModel()): Model<"google-generative-ai"> {
	return { ...model, baseUrl: `${server.url}/v1beta` };
}

export const HELLO: Context = { messages: [{ role: "user", content: "Hello", timestamp: 1 }] };

/** A tiny valid Gemini stream: one text chunk with STOP. */
export const OK_STREAM = `data: ${JSON.stringify({
	candidates: [{ content: { parts: [{ text: "ok" }], role: "model" }, finishReason: "STOP", index: 0 }],
	usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 1, totalTokenCount: 4 },
	responseId: "resp-ok",
})}\r\n\r\n`;

/** Encodes chunks as a Gemini SSE body (CRLF framing, as on the wire). */
export function geminiSse(...chunks: unknown[]): string {
	return chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join("");
}

/** Sends `context` with `options` to a server answering `OK_STREAM`, and returns the recorded request body. */
export async function capturedBody(
	server: ReplayServer,
	model: Model<"google-generative-ai">,
	context: Context,
	options: GoogleOptions = {},
): Promise<unknown> {
	server.reset();
	server.enqueue(sseResponse(OK_STREAM));
	const message = await streamGoogle(onServer(server, model), context, { apiKey: TEST_KEY, ...options }).result();
	if (message.stopReason !== "stop") throw new Error(`request failed: ${message.errorMessage}`);
	return server.requests[0]?.json;
}

/** Like {@link capturedBody} through `streamSimpleGoogle`. */
export async function capturedSimpleBody(
	server: ReplayServer,
	model: Model<"google-generative-ai">,
	context: Context,
	options: SimpleStreamOptions = {},
): Promise<unknown> {
	server.reset();
	server.enqueue(sseResponse(OK_STREAM));
	const message = await streamSimpleGoogle(onServer(server, model), context, { apiKey: TEST_KEY, ...options }).result();
	if (message.stopReason !== "stop") throw new Error(`request failed: ${message.errorMessage}`);
	return server.requests[0]?.json;
}

/** Streams `context` against the next scripted response and records every event. */
export function run(server: ReplayServer, options: GoogleOptions = {}, model = geminiModel(), context = HELLO): Promise<RecordedEvents> {
	return recordEvents(streamGoogle(onServer(server, model), context, { apiKey: TEST_KEY, ...options }));
}

const ZERO_USAGE = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

/** An assistant message as `model` (default: gemini-2.5-flash on provider google) produced it. */
export function assistantMessage(
	content: AssistantMessage["content"],
	from: { model?: string; provider?: string; api?: string; stopReason?: AssistantMessage["stopReason"] } = {},
): AssistantMessage {
	return {
		role: "assistant",
		content,
		api: from.api ?? "google-generative-ai",
		provider: from.provider ?? "google",
		model: from.model ?? "gemini-2.5-flash",
		usage: ZERO_USAGE,
		stopReason: from.stopReason ?? (content.some((block) => block.type === "toolCall") ? "toolUse" : "stop"),
		timestamp: 2,
	};
}

/** A tool result for `toolCallId`. */
export function toolResult(toolCallId: string, toolName: string, content: ToolResultMessage["content"], isError = false): ToolResultMessage {
	return { role: "toolResult", toolCallId, toolName, content, isError, timestamp: 3 };
}
