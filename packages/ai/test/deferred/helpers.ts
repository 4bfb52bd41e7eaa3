/**
 * Helpers of the deferred-reply tests: models of the three deferring APIs pointed at a replay
 * server, the reply a capture streams, and messages compared without their timestamps.
 */
import { AssistantMessageBuilder } from "../../src/assistant-message-builder.js";
import { streamAnthropic } from "../../src/providers/anthropic-messages.js";
import { streamGoogle } from "../../src/providers/google-generative-ai.js";
import { streamOpenAIResponses } from "../../src/providers/openai-responses.js";
import { loadFixture, recordEvents, type ReplayServer, splitSseEvents, sseResponse, startReplayServer } from "../../src/testing/index.js";
import type { Api, AssistantMessage, Context, Model } from "../../src/types.js";

export const KEY = "sk-test-deferred-0123456789";
export const HELLO: Context = { messages: [{ role: "user", content: "Hello", timestamp: 1 }] };

const PRICES = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };

export function responsesModel(server: ReplayServer): Model<"openai-responses"> {
	return base("openai-responses", "openai", "gpt-5", `${server.url}/v1`);
}

export function anthropicModel(server: ReplayServer): Model<"anthropic-messages"> {
	return base("anthropic-messages", "anthropic", "claude-sonnet-4-20250514", server.url);
}

export function geminiModel(server: ReplayServer): Model<"google-generative-ai"> {
	return base("google-generative-ai", "google", "gemini-2.5-flash", `${server.url}/v1beta`);
}

function base<TApi extends Api>(api: TApi, provider: string, id: string, baseUrl: string): Model<TApi> {
	return { id, name: id, api, provider, baseUrl, reasoning: true, input: ["text"], cost: { ...PRICES }, contextWindow: 200_000, maxTokens: 8_192 };
}

/** A message without the fields that differ between two runs of the same reply (timestamps). */
export function comparable(message: AssistantMessage): Omit<AssistantMessage, "timestamp"> {
	const { timestamp: _timestamp, ...rest } = structuredClone(message);
	return rest;
}

/** The final message a capture gives when streamed whole by its provider, on a throwaway server. */
export async function streamedReply(api: "openai-responses" | "anthropic-messages" | "google-generative-ai", name: string): Promise<AssistantMessage> {
	const server = await startReplayServer();
	try {
		server.enqueue(sseResponse(loadFixture(api, name)));
		const events =
			api === "openai-responses"
				? streamOpenAIResponses(responsesModel(server), HELLO, { apiKey: KEY })
				: api === "anthropic-messages"
					? streamAnthropic(anthropicModel(server), HELLO, { apiKey: KEY })
					: streamGoogle(geminiModel(server), HELLO, { apiKey: KEY });
		return (await recordEvents(events)).message;
	} finally {
		await server.close();
	}
}

/** The JSON payloads of a capture's events, in order. */
export function capturePayloads(api: string, name: string): Record<string, any>[] {
	return splitSseEvents(loadFixture(api, name))
		.map((event) => event.json)
		.filter((json): json is Record<string, any> => typeof json === "object" && json !== null);
}

/** A builder for `model` (converters write into one). */
export function builderFor(model: Model<Api>): AssistantMessageBuilder {
	return new AssistantMessageBuilder(model);
}

/**
 * The whole `message` object of a recorded Anthropic stream, built from its events as the API
 * would have returned it without streaming: `message_start`'s message, each block whole (text,
 * thinking and signature, tool input parsed from its JSON fragments), the final stop reason and
 * the usage of `message_start` updated by `message_delta`.
 */
export function anthropicMessageFromCapture(name: string): Record<string, any> {
	const payloads = capturePayloads("anthropic-messages", name);
	const start = payloads.find((payload) => payload.type === "message_start")?.message ?? {};
	const blocks: Record<string, any>[] = [];
	const json = new Map<number, string>();
	let stop: Record<string, any> = {};
	let usage: Record<string, any> = { ...start.usage };
	for (const payload of payloads) {
		const index = payload.index as number;
		if (payload.type === "content_block_start") {
			blocks[index] = structuredClone(payload.content_block);
			if ("input" in payload.content_block) json.set(index, "");
		} else if (payload.type === "content_block_delta") {
			const block = blocks[index] as Record<string, any>;
			const delta = payload.delta;
			if (delta.type === "text_delta") block.text += delta.text;
			else if (delta.type === "thinking_delta") block.thinking += delta.thinking;
			else if (delta.type === "signature_delta") block.signature = delta.signature;
			else if (delta.type === "input_json_delta") json.set(index, (json.get(index) ?? "") + delta.partial_json);
		} else if (payload.type === "content_block_stop") {
			const text = json.get(index);
			if (text !== undefined && text.trim() !== "") (blocks[index] as Record<string, any>).input = JSON.parse(text);
		} else if (payload.type === "message_delta") {
			stop = payload.delta;
			usage = { ...usage, ...payload.usage };
		}
	}
	return { ...start, content: blocks, stop_reason: stop.stop_reason ?? null, stop_details: stop.stop_details ?? null, usage };
}

/**
 * The whole `GenerateContentResponse` of a recorded Gemini stream: every chunk's parts in order
 * in one candidate, with the last chunk's finish reason, usage and ids (Gemini's usage is cumulative).
 */
export function geminiResponseFromCapture(name: string): Record<string, any> {
	const chunks = capturePayloads("google-generative-ai", name);
	const parts: unknown[] = [];
	const merged: Record<string, any> = {};
	let candidate: Record<string, any> = {};
	for (const chunk of chunks) {
		const first = chunk.candidates?.[0];
		if (first) {
			parts.push(...(first.content?.parts ?? []));
			candidate = { ...candidate, ...first };
		}
		for (const key of ["usageMetadata", "promptFeedback", "responseId", "modelVersion"]) if (chunk[key] !== undefined) merged[key] = chunk[key];
	}
	if (Object.keys(candidate).length > 0) merged.candidates = [{ ...candidate, content: { role: "model", ...candidate.content, parts } }];
	return merged;
}
