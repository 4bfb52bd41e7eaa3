/** Wire to unified: a whole `generateContent` response (a batch result) into a builder. The other direction is convert-messages.ts. */
import type { AssistantMessageBuilder } from "../../assistant-message-builder.js";
import { GeminiStreamState } from "./gemini-stream-state.js";
import { createToolCallIdGenerator } from "./tool-call-id.js";
import type { GeminiStreamChunk } from "./wire-types.js";

/**
 * Finishes `builder` with a whole `GenerateContentResponse` (a batch's inline response), giving
 * exactly the message its stream would have given. A streamed chunk is itself a
 * `GenerateContentResponse` and the stream state reads parts one by one, so the whole response is
 * that state's input as one chunk: the same block merging, signatures, tool calls, usage and stop
 * reason. `nextToolCallId` makes ids for calls without one (default: random, as in the stream).
 *
 * @example
 * convertGenerateContentResponse(builder, inlined.response);
 */
export function convertGenerateContentResponse(
	builder: AssistantMessageBuilder,
	response: GeminiStreamChunk,
	nextToolCallId: (name: string) => string = createToolCallIdGenerator(),
): void {
	const state = new GeminiStreamState(builder, nextToolCallId);
	state.handleChunk(response);
	state.finish();
}
