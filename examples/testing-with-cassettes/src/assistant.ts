/**
 * The app under test: a tiny assistant that asks Claude a question and reports the answer, the
 * tools it wants to call, or why it could not answer. Nothing here knows about tests.
 */
import { complete, type Model, type Tool } from "@pi/ai";

/** What the assistant reports back. */
export interface Answer {
	text: string;
	toolCalls: { name: string; arguments: Record<string, unknown> }[];
	/** `stop`, `toolUse`, `length`, or `error` (then see `error`). */
	outcome: string;
	error?: string;
}

/** Claude Sonnet 4 on the Anthropic Messages API; tests point `baseUrl` at a local server. */
export function claude(baseUrl = "https://api.anthropic.com"): Model<"anthropic-messages"> {
	return {
		id: "claude-sonnet-4-20250514",
		name: "Claude Sonnet 4",
		api: "anthropic-messages",
		provider: "anthropic",
		baseUrl,
		reasoning: false,
		input: ["text"],
		cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
		contextWindow: 200_000,
		maxTokens: 8_192,
	};
}

/** Gemini 2.5 Flash on the Gemini API. */
export function gemini(baseUrl = "https://generativelanguage.googleapis.com/v1beta"): Model<"google-generative-ai"> {
	return {
		id: "gemini-2.5-flash",
		name: "Gemini 2.5 Flash",
		api: "google-generative-ai",
		provider: "google",
		baseUrl,
		reasoning: false,
		input: ["text"],
		cost: { input: 0.3, output: 2.5, cacheRead: 0.075, cacheWrite: 0 },
		contextWindow: 1_048_576,
		maxTokens: 65_536,
	};
}

/** Asks `question` and sums up the reply. Failures come back as `outcome: "error"`, never thrown. */
export async function ask(model: Model<"anthropic-messages"> | Model<"google-generative-ai">, question: string, options: { apiKey: string; tools?: Tool[]; maxRetries?: number }): Promise<Answer> {
	const reply = await complete(
		model,
		{ systemPrompt: "Answer briefly.", messages: [{ role: "user", content: question, timestamp: Date.now() }], tools: options.tools },
		{ apiKey: options.apiKey, maxRetries: options.maxRetries ?? 2 },
	);
	const answer: Answer = {
		text: reply.content.map((block) => (block.type === "text" ? block.text : "")).join(""),
		toolCalls: reply.content.flatMap((block) => (block.type === "toolCall" ? [{ name: block.name, arguments: block.arguments }] : [])),
		outcome: reply.stopReason,
	};
	if (reply.errorMessage) answer.error = reply.errorMessage;
	return answer;
}
