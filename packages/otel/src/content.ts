import type { AssistantMessage, Context, ImageContent, Message, StopReason, TextContent } from "@pi/ai";

/**
 * Message contents in the conventions' JSON form (`gen_ai.input.messages`,
 * `gen_ai.output.messages`, `gen_ai.system_instructions`): a list of messages, each a role and
 * a list of typed parts. Recorded only when `captureContent` is on.
 */
type Part =
	| { type: "text"; content: string }
	| { type: "reasoning"; content: string }
	| { type: "blob"; modality: "image"; mime_type: string; content: string }
	| { type: "tool_call"; id: string; name: string; arguments: unknown }
	| { type: "tool_call_response"; id: string; result: unknown };

interface ConventionMessage {
	role: "user" | "assistant" | "tool";
	parts: Part[];
	finish_reason?: string;
}

/** `gen_ai.response.finish_reasons` values: the conventions' names where one fits, else ours. */
export function finishReason(stopReason: StopReason): string {
	switch (stopReason) {
		case "stop":
			return "stop";
		case "length":
			return "length";
		case "toolUse":
			return "tool_call";
		case "error":
			return "error";
		default:
			return stopReason;
	}
}

function userParts(content: string | (TextContent | ImageContent)[]): Part[] {
	if (typeof content === "string") return [{ type: "text", content }];
	return content.map((block) => (block.type === "text" ? { type: "text", content: block.text } : { type: "blob", modality: "image", mime_type: block.mimeType, content: block.data }));
}

function assistantParts(message: AssistantMessage): Part[] {
	return message.content.map((block): Part => {
		if (block.type === "text") return { type: "text", content: block.text };
		if (block.type === "thinking") return { type: "reasoning", content: block.thinking };
		return { type: "tool_call", id: block.id, name: block.name, arguments: block.arguments };
	});
}

function conventionMessage(message: Message): ConventionMessage {
	if (message.role === "user") return { role: "user", parts: userParts(message.content) };
	if (message.role === "assistant") return { role: "assistant", parts: assistantParts(message) };
	const text = message.content.map((block) => (block.type === "text" ? block.text : `[image ${block.mimeType}]`)).join("\n");
	return { role: "tool", parts: [{ type: "tool_call_response", id: message.toolCallId, result: text }] };
}

/** `gen_ai.input.messages`: the context's messages, in the order they are sent. */
export function inputMessages(context: Context): string {
	return JSON.stringify(context.messages.map(conventionMessage));
}

/** `gen_ai.system_instructions`, or nothing when the context has no system prompt. */
export function systemInstructions(context: Context): string | undefined {
	return context.systemPrompt ? JSON.stringify([{ type: "text", content: context.systemPrompt }]) : undefined;
}

/** `gen_ai.output.messages`: the reply, with its finish reason. */
export function outputMessages(message: AssistantMessage): string {
	return JSON.stringify([{ role: "assistant", parts: assistantParts(message), finish_reason: finishReason(message.stopReason) }]);
}

/** The text of a tool result's content (`gen_ai.tool.call.result`). */
export function toolResultText(result: unknown): string {
	const content = (result as { content?: unknown } | undefined)?.content;
	if (!Array.isArray(content)) return JSON.stringify(result ?? null);
	return content.map((block: TextContent | ImageContent) => (block.type === "text" ? block.text : `[image ${block.mimeType}]`)).join("\n");
}
