/** Unified to wire: a transcript into Responses `input` items. The other direction is convert-response.ts (whole responses) and responses-stream-state.ts (streams). */
import { isSameModel, transformMessages } from "../../transform-messages.js";
import type { Api, AssistantMessage, ImageContent, Message, Model, TextContent, ThinkingContent, ToolResultMessage } from "../../types.js";
import { imageDataUrl } from "../openai-shared.js";
import { decodeTextSignature } from "./text-signature.js";
import { decodeToolCallId, normalizeResponsesToolCallId } from "./tool-call-id.js";
import type {
	ResponsesFunctionCallOutput,
	ResponsesInputImage,
	ResponsesInputItem,
	ResponsesInputText,
	ResponsesReasoningItem,
	ResponsesUserMessage,
} from "./wire-types.js";

export interface ConvertMessagesOptions {
	/**
	 * Whether the request stores responses on the server (`store`). With `store: false` a reasoning
	 * item can only be replayed when it carries its own content (`encrypted_content`, or raw
	 * reasoning text): the server has nothing to look its id up in, and would reject the request.
	 */
	store: boolean;
}

/**
 * Turns a transcript into Responses `input` items for `model`. It runs `transformMessages` first
 * (cross-model handoff: other models' thinking becomes text, signatures are dropped, orphan tool
 * calls get results), then maps:
 *
 * - user text and images → one `{ role: "user", content: [input_text | input_image] }`;
 * - assistant text → an output `message` item with its id and `phase` (same model), or the short
 *   `{ role: "assistant", content }` form when there is no id;
 * - thinking of the same model → its `reasoning` item, replayed exactly from `thinkingSignature`;
 *   thinking without a usable item is dropped (the server could not verify it);
 * - tool calls → `function_call` items (`call_id`, and the item `id` for the same model);
 * - tool results → `function_call_output`, with `input_text`/`input_image` parts when there are images.
 *
 * The system prompt is not an item: it goes to `instructions` (see `buildRequest`).
 */
export function convertMessages(messages: readonly Message[], model: Model<Api>, options: ConvertMessagesOptions): ResponsesInputItem[] {
	const input: ResponsesInputItem[] = [];
	for (const message of transformMessages(messages, model, { normalizeToolCallId: normalizeResponsesToolCallId })) {
		if (message.role === "user") {
			const user = userMessage(message.content);
			if (user) input.push(user);
		} else if (message.role === "assistant") {
			assistantItems(message, model, options, input);
		} else {
			input.push(toolResult(message));
		}
	}
	return input;
}

function userMessage(content: string | (TextContent | ImageContent)[]): ResponsesUserMessage | undefined {
	if (typeof content === "string") return { role: "user", content: [{ type: "input_text", text: content }] };
	const parts = inputParts(content);
	return parts.length > 0 ? { role: "user", content: parts } : undefined;
}

function inputParts(content: readonly (TextContent | ImageContent)[]): (ResponsesInputText | ResponsesInputImage)[] {
	const parts: (ResponsesInputText | ResponsesInputImage)[] = [];
	for (const block of content) {
		if (block.type === "text") parts.push({ type: "input_text", text: block.text });
		else parts.push({ type: "input_image", image_url: imageDataUrl(block), detail: "auto" });
	}
	return parts;
}

function assistantItems(message: AssistantMessage, model: Model<Api>, options: ConvertMessagesOptions, input: ResponsesInputItem[]): void {
	// transformMessages already dropped other models' signatures; this guards item ids as well.
	const same = isSameModel(message, model);
	for (const block of message.content) {
		if (block.type === "text") {
			const signature = same ? decodeTextSignature(block.textSignature) : undefined;
			if (signature) {
				for (const item of signature.before ?? []) input.push(item as ResponsesInputItem);
				input.push({
					type: "message",
					role: "assistant",
					id: signature.id,
					status: "completed",
					content: [{ type: "output_text", text: block.text, annotations: [] }],
					...(signature.phase ? { phase: signature.phase } : {}),
				});
				for (const item of signature.after ?? []) input.push(item as ResponsesInputItem);
			} else {
				input.push({ role: "assistant", content: block.text });
			}
		} else if (block.type === "thinking") {
			const item = same ? reasoningItem(block, options.store) : undefined;
			if (item) {
				// Built-in tool items kept beside the reasoning item (see responses-stream-state.ts).
				const { piBefore, piAfter, ...reasoning } = item as ResponsesReasoningItem & { piBefore?: unknown[]; piAfter?: unknown[] };
				for (const carried of piBefore ?? []) input.push(carried as ResponsesInputItem);
				input.push(reasoning);
				for (const carried of piAfter ?? []) input.push(carried as ResponsesInputItem);
			}
		} else {
			const { callId, itemId } = decodeToolCallId(block.id);
			input.push({
				type: "function_call",
				call_id: callId,
				name: block.name,
				arguments: JSON.stringify(block.arguments ?? {}),
				// Another model's item id would point at a reasoning item this request does not carry.
				...(same && itemId ? { id: itemId } : {}),
			});
		}
	}
}

/**
 * The reasoning item stored in `thinkingSignature` (the whole item JSON from `output_item.done`),
 * or `undefined` when it cannot be replayed. A bare `rs_…` id (older signatures) is accepted only
 * when responses are stored on the server.
 */
function reasoningItem(block: ThinkingContent, store: boolean): ResponsesReasoningItem | undefined {
	const signature = block.thinkingSignature;
	if (!signature) return undefined;
	let item: ResponsesReasoningItem | undefined;
	if (signature.startsWith("{")) {
		try {
			const value: unknown = JSON.parse(signature);
			if (isReasoningItem(value)) item = value;
		} catch {
			return undefined;
		}
	} else {
		item = { type: "reasoning", id: signature, summary: [] };
	}
	if (!item) return undefined;
	// A stateless request can only carry what the item holds itself: its encrypted reasoning, or
	// the raw reasoning text that LM Studio and DeepSeek put in `content`. OpenAI rejects a bare id
	// ("Items are not persisted when `store` is set to false").
	if (!store && !item.encrypted_content && !(Array.isArray(item.content) && item.content.length > 0)) return undefined;
	return item;
}

function isReasoningItem(value: unknown): value is ResponsesReasoningItem {
	if (typeof value !== "object" || value === null) return false;
	const record = value as Record<string, unknown>;
	return record.type === "reasoning" && typeof record.id === "string" && record.id !== "";
}

function toolResult(message: ToolResultMessage): ResponsesFunctionCallOutput {
	const { callId } = decodeToolCallId(message.toolCallId);
	const hasImages = message.content.some((block) => block.type === "image");
	if (!hasImages) {
		const text = message.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");
		return { type: "function_call_output", call_id: callId, output: text };
	}
	// Responses accepts `output` as a list of input parts, so images reach the model with the result.
	return { type: "function_call_output", call_id: callId, output: inputParts(message.content) };
}
