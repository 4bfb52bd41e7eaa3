import type { UIMessageChunk } from "./ui-message.js";

/** The UI message stream protocol's response headers (the same as `ai`'s `UI_MESSAGE_STREAM_HEADERS`). */
export const UI_MESSAGE_STREAM_HEADERS: Readonly<Record<string, string>> = Object.freeze({
	"content-type": "text/event-stream",
	"cache-control": "no-cache",
	connection: "keep-alive",
	"x-vercel-ai-ui-message-stream": "v1",
	"x-accel-buffering": "no",
});

/**
 * Chunks as the protocol's server-sent events: `data: <json>` per chunk, then `data: [DONE]`.
 * Cancelling the byte stream cancels the chunks (and so aborts the agent).
 */
export function uiMessageChunkSseStream(chunks: ReadableStream<UIMessageChunk>): ReadableStream<Uint8Array> {
	const encoder = new TextEncoder();
	return chunks.pipeThrough(
		new TransformStream<UIMessageChunk, Uint8Array>({
			transform(chunk, controller) {
				controller.enqueue(encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`));
			},
			flush(controller) {
				controller.enqueue(encoder.encode("data: [DONE]\n\n"));
			},
		}),
	);
}
