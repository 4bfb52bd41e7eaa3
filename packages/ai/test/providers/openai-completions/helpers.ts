import { streamOpenAICompletions, type OpenAICompletionsOptions } from "../../../src/providers/openai-completions.js";
import { type RecordedEvents, type RecordedRequest, type ReplayServer, recordEvents, sseResponse } from "../../../src/testing/index.js";
import type {
	Api,
	AssistantMessage,
	Context,
	Model,
	SimpleStreamOptions,
	StreamFunction,
	ToolResultMessage,
	UserMessage,
} from "../../../src/types.js";

/** A Chat Completions test model (OpenAI by default), pointed at a closed port unless overridden. */
export function completionsModel(overrides: Partial<Model<"openai-completions">> = {}): Model<"openai-completions"> {
	return {
		id: "gpt-4o-mini",
		name: "GPT-4o mini",
		api: "openai-completions",
		provider: "openai",
		baseUrl: "http://127.0.0.1:9/v1",
		reasoning: false,
		input: ["text", "image"],
		cost: { input: 0.15, output: 0.6, cacheRead: 0.075, cacheWrite: 0 },
		contextWindow: 128_000,
		maxTokens: 16_384,
		...overrides,
	};
}

/** The flavours golden request tests run per: the model each server is tested with. */
export const FLAVOURS = {
	openai: completionsModel({ id: "o4-mini", provider: "openai", reasoning: true }),
	groq: completionsModel({ id: "openai/gpt-oss-120b", provider: "groq", reasoning: true, input: ["text"] }),
	deepseek: completionsModel({ id: "deepseek-reasoner", provider: "deepseek", reasoning: true, input: ["text"] }),
	mistral: completionsModel({ id: "magistral-medium-2507", provider: "mistral", reasoning: true }),
	openrouter: completionsModel({ id: "openai/gpt-5", provider: "openrouter", reasoning: true }),
	ollama: completionsModel({ id: "gpt-oss:20b", provider: "ollama", reasoning: true, input: ["text"] }),
} satisfies Record<string, Model<"openai-completions">>;

export type Flavour = keyof typeof FLAVOURS;

export function user(content: UserMessage["content"]): UserMessage {
	return { role: "user", content, timestamp: 0 };
}

/** A finished assistant message as a transcript holds it, produced by `from`. */
export function assistant(
	content: AssistantMessage["content"],
	from: Pick<Model<Api>, "id" | "api" | "provider">,
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

export function toolResult(toolCallId: string, toolName: string, content: ToolResultMessage["content"], isError = false): ToolResultMessage {
	return { role: "toolResult", toolCallId, toolName, content, isError, timestamp: 0 };
}

/** A context with one user message. */
export function ask(text = "Hello", extra: Partial<Context> = {}): Context {
	return { messages: [user(text)], ...extra };
}

/** One SSE `data:` frame. */
export function data(payload: unknown): string {
	return `data: ${typeof payload === "string" ? payload : JSON.stringify(payload)}\n\n`;
}

/** A Chat Completions chunk with one choice. */
export function chunk(delta: Record<string, unknown>, finishReason: string | null = null, extra: Record<string, unknown> = {}): string {
	return data({ id: "chatcmpl-test", object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra });
}

/** The smallest complete stream: `text`, a stop finish, a usage chunk, `[DONE]`. */
export function textStream(text = "Hi"): string {
	return [
		chunk({ role: "assistant", content: text }),
		chunk({}, "stop"),
		data({ id: "chatcmpl-test", choices: [], usage: { prompt_tokens: 5, completion_tokens: 2 } }),
		"data: [DONE]\n\n",
	].join("");
}

/**
 * Runs one request of `model` (re-pointed at `server`) against a scripted text stream, with
 * `run` (default `streamOpenAICompletions`), and returns the request the server recorded and the
 * stream's recorded events.
 */
export async function capture(
	server: ReplayServer,
	model: Model<"openai-completions">,
	context: Context,
	options: OpenAICompletionsOptions | SimpleStreamOptions = {},
	run: StreamFunction<"openai-completions", OpenAICompletionsOptions | SimpleStreamOptions> = streamOpenAICompletions,
): Promise<{ request: RecordedRequest; recorded: RecordedEvents }> {
	server.reset();
	server.enqueue(sseResponse(textStream()));
	const recorded = await recordEvents(run({ ...model, baseUrl: `${server.url}/v1` }, context, options));
	const request = server.requests[0];
	if (!request) throw new Error(`No request was recorded; the stream ended with: ${recorded.message.errorMessage}`);
	return { request, recorded };
}

/** Transport headers that fetch and the HTTP seam add; golden header tests compare the rest. */
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

/** The headers a provider chose: the recorded ones minus {@link TRANSPORT_HEADERS}. */
export function providerHeaders(headers: Record<string, string>): Record<string, string> {
	return Object.fromEntries(Object.entries(headers).filter(([name]) => !TRANSPORT_HEADERS.has(name)));
}

/** A 1×1 PNG, base64. */
export const PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
