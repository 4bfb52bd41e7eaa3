/** Unified to wire: a transcript into Gemini `contents`. The other direction is convert-response.ts (whole responses) and gemini-stream-state.ts (streams). */
import { isSameModel, transformMessages } from "../../transform-messages.js";
import { decodeTextSignature } from "./server-parts.js";
import type { Api, AssistantMessage, ImageContent, Message, Model, TextContent, ToolResultMessage, UserMessage } from "../../types.js";
import { addMissingFunctionCallSignatures } from "./function-call-signatures.js";
import type { ResolvedGoogleCompat } from "./google-compat.js";
import { isGeneratedToolCallId } from "./tool-call-id.js";
import type { GeminiContent, GeminiFunctionResponse, GeminiPart } from "./wire-types.js";

/**
 * Converts a transcript to Gemini `contents`, after `transformMessages` prepared it for `model`.
 *
 * - Roles are `user` and `model`; consecutive turns of one role are merged into one content, so
 *   that the tool results of one step, and a user message after them, form one `user` turn.
 * - User text and images become `text` and `inlineData` parts.
 * - Assistant text becomes `text` parts; thinking becomes `{ text, thought: true }` parts; tool
 *   calls become `functionCall { name, args, id? }`. For the same model (same provider, api and
 *   id), `textSignature`, `thinkingSignature` and `ToolCall.thoughtSignature` are replayed as the
 *   part's `thoughtSignature`, and a call's wire id as `functionCall.id` (ids this library
 *   generated for id-less calls are not sent). Other models' thinking arrives here as text.
 * - Tool results become `functionResponse { name, id?, response: { output } | { error } }`, with
 *   the result's text parts joined by newlines. `id` is sent when the call's id was sent. Images
 *   go into `functionResponse.parts` where the model supports it (Gemini 3+); otherwise they
 *   follow the function responses of that turn as image parts, each group introduced by a line
 *   naming the tool.
 * - When the model requires signed function calls (Gemini 3+), see
 *   {@link addMissingFunctionCallSignatures}.
 *
 * @example
 * convertMessages(model, [{ role: "user", content: "Hi", timestamp: 0 }], resolveGoogleCompat(model));
 * // [{ role: "user", parts: [{ text: "Hi" }] }]
 */
export function convertMessages<TApi extends Api>(
	model: Model<TApi>,
	messages: readonly Message[],
	compat: ResolvedGoogleCompat,
): GeminiContent[] {
	const contents: GeminiContent[] = [];
	const sentIds = new Set<string>();
	/** Images of tool results waiting to follow the function responses (models without multimodal responses). */
	let trailingImages: GeminiPart[] = [];
	/** The first content after the user's latest own message: where the current turn's steps begin. */
	let turnStart = 0;

	const append = (role: GeminiContent["role"], parts: GeminiPart[]) => {
		if (parts.length === 0) return;
		const last = contents[contents.length - 1];
		if (last && last.role === role) last.parts.push(...parts);
		else contents.push({ role, parts });
	};
	const flushImages = () => {
		if (trailingImages.length === 0) return;
		append("user", trailingImages);
		trailingImages = [];
	};

	for (const message of transformMessages(messages, model)) {
		if (message.role === "toolResult") {
			const { part, images } = toolResultPart(message, sentIds, compat.multimodalFunctionResponse);
			append("user", [part]);
			if (images.length > 0) {
				const plural = images.length > 1;
				trailingImages.push({ text: `The "${message.toolName}" tool returned ${plural ? "these images" : "this image"}:` }, ...images);
			}
			continue;
		}
		flushImages();
		if (message.role === "user") {
			const parts = userParts(message);
			append("user", parts);
			if (parts.length > 0) turnStart = contents.length;
		} else append("model", assistantParts(message, model, sentIds));
	}
	flushImages();

	if (compat.requiresFunctionCallSignature) addMissingFunctionCallSignatures(contents, turnStart);
	return contents;
}

function userParts(message: UserMessage): GeminiPart[] {
	if (typeof message.content === "string") return message.content === "" ? [] : [{ text: message.content }];
	const parts: GeminiPart[] = [];
	for (const block of message.content) {
		if (block.type === "text") {
			if (block.text !== "") parts.push({ text: block.text });
		} else {
			parts.push(imagePart(block));
		}
	}
	return parts;
}

function assistantParts<TApi extends Api>(message: AssistantMessage, model: Model<TApi>, sentIds: Set<string>): GeminiPart[] {
	const same = isSameModel(message, model);
	const parts: GeminiPart[] = [];
	for (const block of message.content) {
		if (block.type === "text") {
			// The same model gets its code-execution parts back around the text, exactly as sent.
			const envelope = same ? decodeTextSignature(block.textSignature) : undefined;
			if (envelope) parts.push(...envelope.before);
			if (block.text !== "" || !envelope || envelope.thoughtSignature) {
				const part: GeminiPart = { text: block.text };
				if (envelope?.thoughtSignature) part.thoughtSignature = envelope.thoughtSignature;
				parts.push(part);
			}
			if (envelope) parts.push(...envelope.after);
		} else if (block.type === "thinking") {
			// Redacted thinking is another vendor's opaque payload; Gemini cannot read it.
			if (block.redacted) continue;
			const part: GeminiPart = { text: block.thinking, thought: true };
			if (same && block.thinkingSignature) part.thoughtSignature = block.thinkingSignature;
			parts.push(part);
		} else {
			const call: NonNullable<GeminiPart["functionCall"]> = { name: block.name, args: block.arguments };
			if (same && !isGeneratedToolCallId(block.id, block.name)) {
				call.id = block.id;
				sentIds.add(block.id);
			}
			const part: GeminiPart = { functionCall: call };
			if (same && block.thoughtSignature) part.thoughtSignature = block.thoughtSignature;
			parts.push(part);
		}
	}
	return parts;
}

function toolResultPart(
	message: ToolResultMessage,
	sentIds: ReadonlySet<string>,
	multimodal: boolean,
): { part: GeminiPart; images: GeminiPart[] } {
	const texts: string[] = [];
	const images: GeminiPart[] = [];
	for (const block of message.content as (TextContent | ImageContent)[]) {
		if (block.type === "text") texts.push(block.text);
		else images.push(imagePart(block));
	}
	let text = texts.join("\n");
	if (text === "" && images.length > 0) text = images.length === 1 ? "(image attached)" : `(${images.length} images attached)`;
	const response: GeminiFunctionResponse = {
		name: message.toolName,
		response: message.isError ? { error: text } : { output: text },
	};
	if (sentIds.has(message.toolCallId)) response.id = message.toolCallId;
	if (multimodal && images.length > 0) {
		response.parts = images.map((image) => ({ inlineData: image.inlineData as NonNullable<GeminiPart["inlineData"]> }));
		return { part: { functionResponse: response }, images: [] };
	}
	return { part: { functionResponse: response }, images };
}

function imagePart(image: ImageContent): GeminiPart {
	return { inlineData: { mimeType: image.mimeType, data: image.data } };
}
