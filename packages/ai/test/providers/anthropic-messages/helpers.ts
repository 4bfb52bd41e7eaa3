import type { Api, AssistantMessage, Context, Model, UserMessage } from "../../../src/types.js";

/** A test model of the Anthropic Messages API, priced like Claude Sonnet 4, pointed at `baseUrl`. */
export function anthropicModel(overrides: Partial<Model<"anthropic-messages">> = {}): Model<"anthropic-messages"> {
	return {
		id: "claude-sonnet-4-20250514",
		name: "Claude Sonnet 4",
		api: "anthropic-messages",
		provider: "anthropic",
		baseUrl: "http://127.0.0.1:9",
		reasoning: true,
		input: ["text", "image"],
		cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
		contextWindow: 200_000,
		maxTokens: 64_000,
		...overrides,
	};
}

export function user(text: string): UserMessage {
	return { role: "user", content: text, timestamp: 0 };
}

/** A context with one user message. */
export function ask(text = "Hello", extra: Partial<Context> = {}): Context {
	return { messages: [user(text)], ...extra };
}

/** A finished assistant message as a transcript holds it. */
export function assistant(
	content: AssistantMessage["content"],
	from: Pick<Model<Api>, "id" | "api" | "provider"> = anthropicModel(),
	stopReason: AssistantMessage["stopReason"] = "stop",
): AssistantMessage {
	return {
		role: "assistant",
		content,
		api: from.api,
		provider: from.provider,
		model: from.id,
		usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
		stopReason,
		timestamp: 0,
	};
}

/** The smallest complete Anthropic stream: one text block saying `text`, then end_turn. */
export function textStream(text = "Hi"): string {
	return [
		frame("message_start", { type: "message_start", message: { id: "msg_test", usage: { input_tokens: 5, output_tokens: 1 } } }),
		frame("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
		frame("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } }),
		frame("content_block_stop", { type: "content_block_stop", index: 0 }),
		frame("message_delta", { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 3 } }),
		frame("message_stop", { type: "message_stop" }),
	].join("");
}

/** One SSE frame with an `event:` line, as Anthropic sends them. */
export function frame(event: string, data: unknown): string {
	return `event: ${event}\ndata: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
}

/** Transport headers that fetch and the seam add; golden header tests compare everything else. */
const TRANSPORT_HEADERS = new Set([
	"host",
	"connection",
	"content-length",
	"content-type",
	"accept",
	"accept-encoding",
	"accept-language",
	"sec-fetch-mode",
	"user-agent",
	"transfer-encoding",
]);

/** The request headers a provider chose: the recorded ones minus {@link TRANSPORT_HEADERS}. */
export function providerHeaders(headers: Record<string, string>): Record<string, string> {
	return Object.fromEntries(Object.entries(headers).filter(([name]) => !TRANSPORT_HEADERS.has(name)));
}
