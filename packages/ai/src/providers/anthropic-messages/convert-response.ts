/**
 * Wire to unified: a whole Messages API response (a batch result row's `message`) into a builder.
 * Its opposite direction, unified to wire, is convert-messages.ts.
 */
import type { AssistantMessageBuilder } from "../../assistant-message-builder.js";
import { AnthropicStreamState } from "./anthropic-stream-state.js";
import type { AnthropicWireContentBlock, AnthropicWireUsage } from "./wire-types.js";

/** A whole (not streamed) Messages API `message` object, as a batch result row carries it. */
export interface AnthropicMessageObject {
	id?: string;
	type?: string;
	role?: string;
	model?: string;
	content?: AnthropicWireContentBlock[] | null;
	stop_reason?: string | null;
	stop_details?: { type?: string; category?: string; explanation?: string } | null;
	usage?: AnthropicWireUsage | null;
}

/**
 * Finishes `builder` with a whole `message` object, giving exactly the message its stream would
 * have given: it is replayed through the same {@link AnthropicStreamState}, as `message_start`,
 * one `content_block_start` + `content_block_stop` per block (each block arriving whole: text,
 * thinking with its signature, redacted thinking, tool input), `message_delta` with the stop
 * reason and usage, and `message_stop`. Server-side blocks are kept for replay, as in the stream.
 *
 * @example
 * convertMessageObject(builder, row.result.message);
 */
export function convertMessageObject(builder: AssistantMessageBuilder, message: AnthropicMessageObject): void {
	const state = new AnthropicStreamState(builder);
	state.handle({ type: "message_start", message: { id: message.id, model: message.model, usage: message.usage ?? undefined } });
	const blocks = Array.isArray(message.content) ? message.content : [];
	blocks.forEach((block, index) => {
		if (!block || typeof block !== "object" || typeof block.type !== "string") return;
		state.handle({ type: "content_block_start", index, content_block: block });
		state.handle({ type: "content_block_stop", index });
	});
	state.handle({
		type: "message_delta",
		delta: { type: "message_delta", stop_reason: message.stop_reason ?? null, stop_details: message.stop_details ?? null },
		usage: message.usage ?? undefined,
	});
	state.handle({ type: "message_stop" });
}
