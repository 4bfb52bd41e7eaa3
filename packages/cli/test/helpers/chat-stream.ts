/**
 * Hand-written Chat Completions streams, for the cases no capture shows (a tool call to the
 * built-in calculator, a reply with escape sequences, a stream with no finish_reason), and where
 * to cut a capture so that a test can interrupt it mid-reply.
 */

/** One `data:` event of a Chat Completions stream: a delta of choice 0, with its finish reason. */
export function chatChunk(delta: object, finishReason: string | null = null): string {
	return `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", model: "m", choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
}

/** The end of a Chat Completions stream. */
export const DONE = "data: [DONE]\n\n";

/** A whole reply of `text`: the text, `finish_reason: "stop"`, `[DONE]`. */
export function chatReply(text: string): string {
	return `${chatChunk({ role: "assistant", content: text })}${chatChunk({}, "stop")}${DONE}`;
}

/** A stream asking for one tool call (id `call_1`), its arguments split across two deltas. */
export function toolCallStream(name: string, args: object): string {
	const text = JSON.stringify(args);
	return [
		chatChunk({ role: "assistant", content: null, tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name, arguments: "" } }] }),
		chatChunk({ tool_calls: [{ index: 0, function: { arguments: text.slice(0, 5) } }] }),
		chatChunk({ tool_calls: [{ index: 0, function: { arguments: text.slice(5) } }] }),
		chatChunk({}, "tool_calls"),
		DONE,
	].join("");
}

/** How many bytes of `body` run through the end of the SSE event holding `marker`. */
export function bytesThroughEvent(body: Uint8Array, marker: string): number {
	const text = Buffer.from(body).toString("utf8");
	const index = text.indexOf(marker);
	if (index < 0) throw new Error(`marker ${marker} not in the capture`);
	return Buffer.byteLength(text.slice(0, text.indexOf("\n\n", index) + 2));
}
