/** Unified to wire: a transcript into Chat Completions `messages`. The other direction is completions-stream-state.ts. */
import { transformMessages } from "../../transform-messages.js";
import type { AssistantMessage, Context, Model, ToolResultMessage, UserMessage } from "../../types.js";
import { imageDataUrl } from "../openai-shared.js";
import type { ResolvedOpenAICompletionsCompat } from "./detect-compat.js";
import { toolCallIdNormalizer } from "./normalize-tool-call-id.js";
import type {
	WireAssistantMessage,
	WireImagePart,
	WireMessage,
	WireTextPart,
	WireThinkingPart,
	WireToolMessage,
	WireUserMessage,
} from "./wire-types.js";

/**
 * The assistant turn inserted between tool results and a user message for servers that require
 * one (Mistral answers 400 "Unexpected role 'user' after role 'tool'").
 */
export const ASSISTANT_AFTER_TOOL_RESULT_TEXT = "I have the tool results.";

/** The content of a tool message whose result had only images (they follow in a user message). */
export const TOOL_RESULT_IMAGES_ONLY_TEXT = "(The result is the image(s) in the next message.)";

/** The content of a tool message whose result was empty: servers reject empty content. */
export const EMPTY_TOOL_RESULT_TEXT = "(no output)";

/** The text heading the images of one tool result in the user message that carries them. */
export function toolResultImagesText(toolCallId: string, toolName: string): string {
	return `The following image(s) belong to the result of tool call ${toolCallId} (${toolName}):`;
}

/**
 * Converts the system prompt and the transcript to Chat Completions messages for `model`.
 *
 * - The system prompt becomes a `developer` message where `compat.supportsDeveloperRole`, else
 *   a `system` message.
 * - User text becomes a string; with images, an array of `text` and `image_url` (data URL) parts.
 * - Assistant text becomes `content` (blocks joined by newlines; `null` when the turn is only
 *   tool calls); tool calls keep their ids, normalised for the server; the same model's
 *   thinking is replayed per `compat.thinkingFormat` (`reasoning_content`, `reasoning`, Mistral
 *   `thinking` content parts) or dropped (`none`); with `compat.requiresThinkingAsText` it
 *   becomes the first text part of `content` instead. Thinking of another model arrives here as
 *   text already (see `transformMessages`). With
 *   `compat.requiresReasoningContentOnAssistantMessages`, a reasoning model's assistant
 *   messages always carry `reasoning_content` (`""` when there is none to replay).
 * - Tool results become `tool` messages with their text (`name` too where required). Tool
 *   messages take text only, so the images of a run of tool results follow in one `user`
 *   message, each group headed by a note naming its tool call.
 * - Where `compat.requiresAssistantAfterToolResult`, a short assistant turn separates tool
 *   results from a following user message.
 */
export function convertMessages(
	model: Model<"openai-completions">,
	context: Context,
	compat: ResolvedOpenAICompletionsCompat,
): WireMessage[] {
	const normalize = toolCallIdNormalizer(compat);
	const messages = transformMessages(context.messages, model, { normalizeToolCallId: normalize });
	const output: WireMessage[] = [];
	if (context.systemPrompt) {
		output.push({ role: compat.supportsDeveloperRole ? "developer" : "system", content: context.systemPrompt });
	}
	const pushUser = (message: WireUserMessage) => {
		if (compat.requiresAssistantAfterToolResult && output[output.length - 1]?.role === "tool") {
			output.push({ role: "assistant", content: ASSISTANT_AFTER_TOOL_RESULT_TEXT });
		}
		output.push(message);
	};
	/** Images of the current run of tool results, sent after the run. */
	let pendingImages: (WireTextPart | WireImagePart)[] = [];
	const flushImages = () => {
		if (pendingImages.length === 0) return;
		pushUser({ role: "user", content: pendingImages });
		pendingImages = [];
	};

	for (const message of messages) {
		if (message.role === "toolResult") {
			const { tool, images } = toolMessage(message, normalize, compat);
			output.push(tool);
			pendingImages.push(...images);
			continue;
		}
		flushImages();
		if (message.role === "user") {
			const user = userMessage(message);
			if (user) pushUser(user);
		} else {
			const assistant = assistantMessage(message, model, normalize, compat);
			if (assistant) output.push(assistant);
		}
	}
	flushImages();
	return output;
}

function userMessage(message: UserMessage): WireUserMessage | undefined {
	if (typeof message.content === "string") {
		return message.content === "" ? undefined : { role: "user", content: message.content };
	}
	const hasImage = message.content.some((block) => block.type === "image");
	if (!hasImage) {
		// A plain string is what every server accepts; some (DeepSeek) reject content arrays.
		const text = message.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");
		return text === "" ? undefined : { role: "user", content: text };
	}
	const parts: (WireTextPart | WireImagePart)[] = message.content.map((block) =>
		block.type === "text" ? { type: "text", text: block.text } : { type: "image_url", image_url: { url: imageDataUrl(block) } },
	);
	return { role: "user", content: parts };
}

function assistantMessage(
	message: AssistantMessage,
	model: Model<"openai-completions">,
	normalize: (id: string) => string,
	compat: ResolvedOpenAICompletionsCompat,
): WireAssistantMessage | undefined {
	const texts: string[] = [];
	const thoughts: string[] = [];
	const parts: (WireTextPart | WireThinkingPart)[] = [];
	const wire: WireAssistantMessage = { role: "assistant", content: null };
	const toolCalls: NonNullable<WireAssistantMessage["tool_calls"]> = [];
	const replaysThinking = compat.requiresThinkingAsText || compat.thinkingFormat !== "none";
	// A signed thinking block may be blank (transformMessages keeps it); as a text part it would
	// be an empty one, which servers reject.
	const isReplayable = (thinking: string) => (compat.requiresThinkingAsText ? thinking.trim() !== "" : thinking !== "");
	for (const block of message.content) {
		if (block.type === "text") {
			texts.push(block.text);
			parts.push({ type: "text", text: block.text });
		} else if (block.type === "thinking") {
			// Only the same model's thinking is still a thinking block here; redacted thinking has
			// no readable text to replay on this API.
			if (block.redacted || !replaysThinking || !isReplayable(block.thinking)) continue;
			thoughts.push(block.thinking);
			parts.push({ type: "thinking", thinking: [{ type: "text", text: block.thinking }] });
		} else {
			toolCalls.push({
				id: normalize(block.id),
				type: "function",
				function: { name: block.name, arguments: JSON.stringify(block.arguments ?? {}) },
			});
		}
	}
	if (texts.length === 0 && thoughts.length === 0 && toolCalls.length === 0) return undefined;
	if (compat.requiresThinkingAsText && thoughts.length > 0) {
		wire.content = thinkingAsText(thoughts, texts);
	} else if (compat.thinkingFormat === "content-parts" && thoughts.length > 0) {
		wire.content = parts;
	} else if (texts.length > 0) {
		wire.content = texts.join("\n");
	} else if (toolCalls.length === 0) {
		// Only reasoning is left (e.g. a reply cut by the length limit): content must be a string.
		wire.content = "";
	}
	if (thoughts.length > 0 && !compat.requiresThinkingAsText) {
		if (compat.thinkingFormat === "reasoning_content") wire.reasoning_content = thoughts.join("");
		else if (compat.thinkingFormat === "reasoning") wire.reasoning = thoughts.join("");
	}
	if (toolCalls.length > 0) wire.tool_calls = toolCalls;
	if (compat.requiresReasoningContentOnAssistantMessages && model.reasoning && wire.reasoning_content === undefined) {
		wire.reasoning_content = "";
	}
	return wire;
}

/**
 * `requiresThinkingAsText`: the thinking as the first text part, blocks joined by a blank line
 * and without tags (a model shown tagged thinking tends to write the tags into its answers),
 * then one part per text block.
 */
function thinkingAsText(thoughts: readonly string[], texts: readonly string[]): WireTextPart[] {
	return [thoughts.join("\n\n"), ...texts].map((text) => ({ type: "text", text }));
}

function toolMessage(
	message: ToolResultMessage,
	normalize: (id: string) => string,
	compat: ResolvedOpenAICompletionsCompat,
): { tool: WireToolMessage; images: (WireTextPart | WireImagePart)[] } {
	const id = normalize(message.toolCallId);
	const texts: string[] = [];
	const images: (WireTextPart | WireImagePart)[] = [];
	for (const block of message.content) {
		if (block.type === "text") texts.push(block.text);
		else images.push({ type: "image_url", image_url: { url: imageDataUrl(block) } });
	}
	const text = texts.join("\n");
	const tool: WireToolMessage = {
		role: "tool",
		tool_call_id: id,
		content: text !== "" ? text : images.length > 0 ? TOOL_RESULT_IMAGES_ONLY_TEXT : EMPTY_TOOL_RESULT_TEXT,
	};
	if (compat.requiresToolResultName) tool.name = message.toolName;
	if (images.length > 0) images.unshift({ type: "text", text: toolResultImagesText(id, message.toolName) });
	return { tool, images };
}
