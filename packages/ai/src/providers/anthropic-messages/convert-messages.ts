/**
 * Unified to wire: a transcript into the Messages API's `messages`. Its opposite direction, wire to
 * unified, is convert-response.ts (whole responses) and anthropic-stream-state.ts (streams).
 */
import { decodeServerBlocks } from "./server-blocks.js";
import { isBlank } from "../../utils/is-blank.js";
import { sanitizeToolCallId, transformMessages } from "../../transform-messages.js";
import type { Api, AssistantMessage, ImageContent, Message, Model, TextContent, ToolResultMessage } from "../../types.js";
import type {
	AnthropicAssistantBlock,
	AnthropicImageBlock,
	AnthropicMessageParam,
	AnthropicTextBlock,
	AnthropicUserBlock,
} from "./wire-types.js";

/**
 * Converts a transcript to Anthropic `messages`.
 *
 * - The transcript first goes through `transformMessages` for `model`: thinking from other models
 *   becomes text, tool-call ids are made to match `^[a-zA-Z0-9_-]{1,64}$`, and tool calls without
 *   results get one.
 * - User text and images (base64 `source`); tool results as `tool_result` blocks with text and
 *   images and `is_error: true` on failures.
 * - Turns must alternate: consecutive tool results, and a user message right after them, are
 *   merged into ONE user turn (results first, as the API wants); consecutive assistant messages
 *   are merged into one assistant turn the same way.
 * - Same-model thinking is replayed with its signature (`thinking`), redacted thinking as
 *   `redacted_thinking` with its opaque data; a thinking block without a signature (which the
 *   API would reject) is sent as text.
 * - No empty or whitespace-only text blocks are sent (the API rejects them), and a message left
 *   with no blocks is dropped. Lone UTF-16 surrogates in text become U+FFFD, since the API
 *   rejects the JSON they produce.
 *
 * Always sends content as block arrays, so a cache breakpoint can go on any last block.
 *
 * @example
 * convertMessages([{ role: "user", content: "Hi", timestamp: 0 }], model)
 * // [{ role: "user", content: [{ type: "text", text: "Hi" }] }]
 */
export function convertMessages<TApi extends Api>(messages: readonly Message[], model: Model<TApi>): AnthropicMessageParam[] {
	const transformed = transformMessages(messages, model, { normalizeToolCallId: (id) => sanitizeToolCallId(id, 64) });
	const output: AnthropicMessageParam[] = [];
	for (const message of transformed) {
		if (message.role === "assistant") {
			const content = assistantBlocks(message);
			if (content.length === 0) continue;
			const last = output[output.length - 1];
			if (last?.role === "assistant") last.content.push(...content);
			else output.push({ role: "assistant", content });
			continue;
		}
		const content = message.role === "user" ? userBlocks(message.content) : [toolResultBlock(message)];
		if (content.length === 0) continue;
		const last = output[output.length - 1];
		if (last?.role === "user") last.content.push(...content);
		else output.push({ role: "user", content });
	}
	return output;
}

function userBlocks(content: string | (TextContent | ImageContent)[]): AnthropicUserBlock[] {
	if (typeof content === "string") return isBlank(content) ? [] : [{ type: "text", text: wellFormed(content) }];
	return contentBlocks(content);
}

function contentBlocks(content: readonly (TextContent | ImageContent)[]): (AnthropicTextBlock | AnthropicImageBlock)[] {
	const blocks: (AnthropicTextBlock | AnthropicImageBlock)[] = [];
	for (const block of content) {
		if (block.type === "image") blocks.push(imageBlock(block));
		else if (!isBlank(block.text)) blocks.push({ type: "text", text: wellFormed(block.text) });
	}
	return blocks;
}

function imageBlock(image: ImageContent): AnthropicImageBlock {
	return { type: "image", source: { type: "base64", media_type: image.mimeType, data: image.data } };
}

function toolResultBlock(message: ToolResultMessage): AnthropicUserBlock {
	const content = contentBlocks(message.content);
	return {
		type: "tool_result",
		tool_use_id: message.toolCallId,
		...(content.length > 0 ? { content } : {}),
		...(message.isError ? { is_error: true as const } : {}),
	};
}

function assistantBlocks(message: AssistantMessage): AnthropicAssistantBlock[] {
	const blocks: AnthropicAssistantBlock[] = [];
	for (const block of message.content) {
		if (block.type === "text") {
			// Server-tool blocks of the same model go back around the text, exactly as received.
			const carried = decodeServerBlocks(block.textSignature);
			blocks.push(...(carried.before as unknown as AnthropicAssistantBlock[]));
			if (!isBlank(block.text)) blocks.push({ type: "text", text: wellFormed(block.text) });
			blocks.push(...(carried.after as unknown as AnthropicAssistantBlock[]));
		} else if (block.type === "thinking") {
			if (block.redacted) {
				if (block.thinkingSignature) blocks.push({ type: "redacted_thinking", data: block.thinkingSignature });
			} else if (block.thinkingSignature) {
				// Replayed byte for byte: the signature covers the text, even when the model sent none.
				blocks.push({ type: "thinking", thinking: block.thinking, signature: block.thinkingSignature });
			} else if (!isBlank(block.thinking)) {
				blocks.push({ type: "text", text: wellFormed(block.thinking) });
			}
		} else {
			blocks.push({ type: "tool_use", id: block.id, name: block.name, input: block.arguments ?? {} });
		}
	}
	return blocks;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Replaces lone surrogates (e.g. from a string cut mid-emoji) with U+FFFD, like `toWellFormed()` (ES2024). */
function wellFormed(text: string): string {
	return text.replace(LONE_SURROGATE, "\uFFFD");
}
