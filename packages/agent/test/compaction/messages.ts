import type { AssistantMessage, ImageContent, ToolCall, ToolResultMessage, UserMessage } from "@pi/ai";
import type { CompactionSummaryMessage } from "../../src/index.js";

/** Small builders of transcript messages for the compaction tests. */

let clock = 1_000;
/** Strictly increasing timestamps: message order is time order, as in a real transcript. */
export function tick(): number {
	return ++clock;
}

export function user(text: string, images: ImageContent[] = []): UserMessage {
	return { role: "user", content: images.length > 0 ? [{ type: "text", text }, ...images] : text, timestamp: tick() };
}

export function usage(input: number, output = 0, cacheRead = 0, cacheWrite = 0): AssistantMessage["usage"] {
	return { input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
}

export function assistant(content: string | AssistantMessage["content"], options: Partial<Pick<AssistantMessage, "stopReason" | "usage" | "errorMessage">> = {}): AssistantMessage {
	const blocks = typeof content === "string" ? [{ type: "text" as const, text: content }] : content;
	return {
		role: "assistant",
		content: blocks,
		api: "faux",
		provider: "faux",
		model: "faux-1",
		usage: options.usage ?? usage(0),
		stopReason: options.stopReason ?? (blocks.some((block) => block.type === "toolCall") ? "toolUse" : "stop"),
		...(options.errorMessage ? { errorMessage: options.errorMessage } : {}),
		timestamp: tick(),
	};
}

export function call(id: string, name = "read_file", args: Record<string, unknown> = { path: `/src/${id}.ts` }): ToolCall {
	return { type: "toolCall", id, name, arguments: args };
}

export function result(id: string, text: string, name = "read_file", images: ImageContent[] = []): ToolResultMessage {
	return { role: "toolResult", toolCallId: id, toolName: name, content: [{ type: "text", text }, ...images], isError: false, timestamp: tick() };
}

export function summary(text: string, tokensBefore = 50_000): CompactionSummaryMessage {
	return { role: "compactionSummary", summary: text, tokensBefore, timestamp: tick() };
}

/** `n` characters of filler text: `n / 4` tokens by the estimate. */
export function chars(n: number): string {
	return "x".repeat(n);
}
