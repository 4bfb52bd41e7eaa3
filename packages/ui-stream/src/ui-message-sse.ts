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
				controller.enqueue(encoder.encode(sseEvent(chunk)));
			},
			flush(controller) {
				controller.enqueue(encoder.encode("data: [DONE]\n\n"));
			},
		}),
	);
}

/**
 * A prepared run's chunks written straight as server-sent event bytes (no stream of chunk
 * objects in between). Chunks that come within one turn of the event loop go out together, in
 * one encode and one enqueue, and the text deltas of one part among them as one delta (the
 * client would have seen them at the same moment anyway): a fast model's tens of thousands of
 * deltas cost a few events, a slow one's go out as they come. Cancelling aborts the agent.
 */
export function sseByteStream(run: (send: (chunk: UIMessageChunk) => void) => Promise<void>, abort: () => void): ReadableStream<Uint8Array> {
	const encoder = new TextEncoder();
	let closed = false;
	let pending = "";
	// The deltas of one part waiting to be joined: the chunk's type and id, and the pieces.
	let deltaType: "text-delta" | "reasoning-delta" | undefined;
	let deltaId = "";
	let deltas: string[] = [];
	let scheduled = false;
	const joinDeltas = () => {
		if (deltaType === undefined) return;
		pending += sseEvent({ type: deltaType, id: deltaId, delta: deltas.length === 1 ? (deltas[0] as string) : deltas.join("") });
		deltaType = undefined;
		deltas = [];
	};
	return new ReadableStream<Uint8Array>({
		start(controller) {
			const flush = () => {
				scheduled = false;
				joinDeltas();
				if (closed || pending === "") return;
				controller.enqueue(encoder.encode(pending));
				pending = "";
			};
			const send = (chunk: UIMessageChunk) => {
				if (closed) return;
				if ((chunk.type === "text-delta" || chunk.type === "reasoning-delta") && chunk.providerMetadata === undefined) {
					if (deltaType !== chunk.type || deltaId !== chunk.id) {
						joinDeltas();
						deltaType = chunk.type;
						deltaId = chunk.id;
					}
					deltas.push(chunk.delta);
				} else {
					joinDeltas();
					pending += sseEvent(chunk);
				}
				if (!scheduled) {
					scheduled = true;
					setTimeout(flush, 0);
				}
			};
			void run(send).finally(() => {
				if (closed) return;
				joinDeltas();
				pending += "data: [DONE]\n\n";
				flush();
				closed = true;
				controller.close();
			});
		},
		cancel() {
			closed = true;
			abort();
		},
	});
}

/**
 * One chunk as an SSE event. Deltas, nearly every chunk of a reply, are written by hand, in the
 * same key order `JSON.stringify` gives the object: stringifying one string is much cheaper
 * than walking an object.
 */
export function sseEvent(chunk: UIMessageChunk): string {
	if ((chunk.type === "text-delta" || chunk.type === "reasoning-delta") && chunk.providerMetadata === undefined) {
		return `data: {"type":"${chunk.type}","id":${JSON.stringify(chunk.id)},"delta":${JSON.stringify(chunk.delta)}}\n\n`;
	}
	return `data: ${JSON.stringify(chunk)}\n\n`;
}
