import { emptyUsage, type AssistantMessage, type Context, type ImageContent, type Message, type TextContent } from "@pi/ai";
import type { CreateMessageRequestParams, CreateMessageResult, SamplingMessage } from "@modelcontextprotocol/sdk/types.js";

/** What a `sampling/createMessage` request asks of the app's model, in @pi/ai terms. */
export interface SamplingRequest {
	context: Context;
	maxTokens: number;
	temperature?: number;
}

/**
 * A server's `sampling/createMessage` params as a @pi/ai context: its `systemPrompt`, and each
 * message with its text and image blocks (audio, tool-use and tool-result blocks are named in
 * text: the app's model is asked without tools). Pure.
 *
 * @example
 * ```ts
 * samplingRequest({ messages: [{ role: "user", content: { type: "text", text: "Hi" } }], maxTokens: 50 }, "faux", 0);
 * ```
 */
export function samplingRequest(params: CreateMessageRequestParams, modelId: string, timestamp = Date.now()): SamplingRequest {
	const messages = params.messages.map((message) => samplingMessage(message, modelId, timestamp));
	const context: Context = { messages };
	if (params.systemPrompt) context.systemPrompt = params.systemPrompt;
	const request: SamplingRequest = { context, maxTokens: params.maxTokens };
	if (params.temperature !== undefined) request.temperature = params.temperature;
	return request;
}

function samplingMessage(message: SamplingMessage, modelId: string, timestamp: number): Message {
	const parts = Array.isArray(message.content) ? message.content : [message.content];
	const blocks = parts.map((part): TextContent | ImageContent => {
		switch (part.type) {
			case "text":
				return { type: "text", text: part.text };
			case "image":
				return { type: "image", data: part.data, mimeType: part.mimeType };
			default:
				return { type: "text", text: `[${part.type} content, not shown]` };
		}
	});
	if (message.role === "user") return { role: "user", content: blocks, timestamp };
	const text = blocks.map((block) => (block.type === "text" ? block : { type: "text" as const, text: `[image ${block.mimeType}, not shown]` }));
	const assistant: AssistantMessage = { role: "assistant", content: text, api: "mcp", provider: "mcp", model: modelId, usage: emptyUsage(), stopReason: "stop", timestamp };
	return assistant;
}

/**
 * The app model's reply as the answer to `sampling/createMessage`: its text (blocks joined),
 * the model id, and the stop reason (`stop` → `endTurn`, `length` → `maxTokens`, `toolUse` →
 * `toolUse`). A reply that failed or was aborted throws its `errorMessage`, which the SDK
 * sends back to the server as a JSON-RPC error. Pure.
 *
 * @example
 * ```ts
 * samplingResult(reply); // { role: "assistant", model: "faux-1", content: { type: "text", text: "…" }, stopReason: "endTurn" }
 * ```
 */
export function samplingResult(reply: AssistantMessage): CreateMessageResult {
	if (reply.stopReason === "error" || reply.stopReason === "aborted") {
		throw new Error(`the app's model ${reply.model} could not answer the sampling request: ${reply.errorMessage ?? reply.stopReason}`);
	}
	const text = reply.content
		.filter((block) => block.type === "text")
		.map((block) => block.text)
		.join("");
	return { role: "assistant", model: reply.model, content: { type: "text", text }, stopReason: samplingStopReason(reply.stopReason) };
}

function samplingStopReason(stopReason: AssistantMessage["stopReason"]): string {
	switch (stopReason) {
		case "stop":
			return "endTurn";
		case "length":
			return "maxTokens";
		case "toolUse":
			return "toolUse";
		default:
			return stopReason;
	}
}
