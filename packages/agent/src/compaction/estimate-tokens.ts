import { type Api, type AssistantMessage, type ImageContent, isStandardSchema, resolveSchema, type TextContent, type Tool, type Usage } from "@pi/ai";
import type { AgentMessage } from "../types.js";
import { COMPACTION_SUMMARY_PREFIX } from "./compaction-summary-message.js";
import { estimateImageTokens } from "./image-tokens.js";

/**
 * Context-size estimates. Providers report exact prompt sizes in `usage`, so the estimate starts
 * from the newest usage that still describes this transcript and estimates only the messages
 * after it, at about four characters a token (images at the providers' rates).
 */

/**
 * Characters per token for text, the usual rule of thumb for English text and code. Chinese,
 * Japanese and Korean characters count one token each instead (tokenizers give them about 0.7
 * to 1.5 tokens).
 */
export const CHARS_PER_TOKEN = 4;

/**
 * Tokens a tool call costs beyond its name and arguments: the framing providers wrap around it.
 * Measured on the recorded captures: about 35 a call on Anthropic, 8 to 10 on OpenAI's APIs.
 */
export const TOOL_CALL_TOKENS = 20;

/** What {@link estimateContextTokens} found. */
export interface ContextTokenEstimate {
	/** The estimated context size: `usageTokens + trailingTokens`. */
	tokens: number;
	/** From the reported usage of the message at `lastUsageIndex` (0 when none counts). */
	usageTokens: number;
	/** Estimated for the messages after `lastUsageIndex` (all of them when none counts). */
	trailingTokens: number;
	/** Index of the assistant message whose usage was used, or `undefined`. */
	lastUsageIndex: number | undefined;
}

/** Options of {@link estimateContextTokens}. */
export interface EstimateOptions {
	/** The wire API the context goes to; picks the image rate. Default: the highest rate of the four APIs. */
	api?: Api;
	/** Counted only when no usage counts (a reported usage already includes them). */
	systemPrompt?: string;
	/** Counted only when no usage counts: names, descriptions and JSON schemas. */
	tools?: readonly Tool[];
}

/** The context a reply's usage describes: its prompt (`input + cacheRead + cacheWrite`) plus its `output`. */
export function usageContextTokens(usage: Usage): number {
	return (usage.input || 0) + (usage.output || 0) + (usage.cacheRead || 0) + (usage.cacheWrite || 0);
}

/**
 * Estimates the tokens of one message: text, thinking and tool-call arguments at
 * {@link CHARS_PER_TOKEN} characters a token (a CJK character counts one token), plus
 * {@link TOOL_CALL_TOKENS} for each tool call's framing, images at the providers' rates (see
 * `estimateImageTokens`), a large tool result by its text. A custom message counts by its JSON
 * text (an overestimate when `convertToLlm` drops it). Costs a scan of the message's text (for
 * CJK characters) and one `JSON.stringify` of each tool call's arguments; nothing is cached (a
 * cache keyed by message costs more than it saves, and the loop only estimates the messages
 * after the last usage).
 *
 * @example
 * ```ts
 * estimateMessageTokens({ role: "user", content: "x".repeat(400), timestamp: 0 }); // 100
 * ```
 */
export function estimateMessageTokens(message: AgentMessage, api?: Api): number {
	return measure(message, api);
}

/**
 * Estimates the size of the context `messages` make, in tokens.
 *
 * It starts from the usage of the newest assistant message that succeeded (not `error` or
 * `aborted`, with non-zero usage): `input + output + cacheRead + cacheWrite`, which covers the
 * system prompt, the tools and every message up to that reply. It adds
 * {@link estimateMessageTokens} for each message after it.
 *
 * Usage reported before the last compaction describes the old, longer context, so it is not
 * used: only an assistant message after the last `compactionSummary` message, and newer than it
 * (`timestamp` greater than the summary's), counts. Kept messages sit after the summary but are
 * older than it. Without such usage, every message is estimated, plus `systemPrompt` and `tools`.
 *
 * @example
 * ```ts
 * const { tokens } = estimateContextTokens(agent.state.messages);
 * if (shouldCompact(tokens, model, { enabled: true })) console.log("time to compact");
 * ```
 */
export function estimateContextTokens(messages: readonly AgentMessage[], options: EstimateOptions = {}): ContextTokenEstimate {
	const usageIndex = lastUsageIndex(messages);
	let trailingTokens = 0;
	for (let index = (usageIndex ?? -1) + 1; index < messages.length; index++) {
		trailingTokens += estimateMessageTokens(messages[index] as AgentMessage, options.api);
	}
	if (usageIndex === undefined) {
		trailingTokens += textTokens(options.systemPrompt?.length ?? 0);
		for (const tool of options.tools ?? []) trailingTokens += textTokens(tool.name.length + tool.description.length + jsonLength(wireSchema(tool)));
		return { tokens: trailingTokens, usageTokens: 0, trailingTokens, lastUsageIndex: undefined };
	}
	const usageTokens = usageContextTokens((messages[usageIndex] as AssistantMessage).usage);
	return { tokens: usageTokens + trailingTokens, usageTokens, trailingTokens, lastUsageIndex: usageIndex };
}

/** The index of the newest assistant message whose usage describes this transcript, if any. */
function lastUsageIndex(messages: readonly AgentMessage[]): number | undefined {
	for (let index = messages.length - 1; index >= 0; index--) {
		const message = messages[index] as AgentMessage;
		const role = (message as { role?: unknown }).role;
		if (role === "compactionSummary") return undefined; // older usage is from before it
		if (role !== "assistant") continue;
		const reply = message as AssistantMessage;
		if (reply.stopReason === "error" || reply.stopReason === "aborted" || !reply.usage) continue;
		if (usageContextTokens(reply.usage) <= 0) continue;
		if (isStale(messages, index, reply.timestamp)) return undefined;
		return index;
	}
	return undefined;
}

/** A reply at `index` is stale when the last summary before it is newer than (or as old as) it. */
function isStale(messages: readonly AgentMessage[], index: number, timestamp: number): boolean {
	for (let earlier = index - 1; earlier >= 0; earlier--) {
		const message = messages[earlier] as { role?: unknown; timestamp?: unknown };
		if (message.role === "compactionSummary") return !(timestamp > (message.timestamp as number));
	}
	return false;
}

function measure(message: AgentMessage, api: Api | undefined): number {
	const candidate = message as { role?: unknown; content?: unknown };
	// Characters other than CJK, CJK characters, and tokens counted as such (images, framing).
	let chars = 0;
	let wide = 0;
	let fixed = 0;
	const add = (text: string) => {
		const count = countWide(text);
		wide += count;
		chars += text.length - count;
	};
	switch (candidate.role) {
		case "toolResult":
			add((message as { toolName: string }).toolName);
		// falls through: a tool result's content is like a user message's
		case "user": {
			const content = candidate.content as string | (TextContent | ImageContent)[] | undefined;
			if (typeof content === "string") add(content);
			else if (Array.isArray(content)) {
				for (const block of content) {
					if (block.type === "text") add(block.text);
					else if (block.type === "image") fixed += estimateImageTokens(block, api);
				}
			}
			break;
		}
		case "assistant":
			for (const block of (message as AssistantMessage).content) {
				if (block.type === "text") add(block.text);
				else if (block.type === "thinking") add(block.thinking);
				else if (block.type === "toolCall") {
					add(block.name);
					chars += jsonLength(block.arguments);
					fixed += TOOL_CALL_TOKENS;
				}
			}
			break;
		case "compactionSummary":
			add(COMPACTION_SUMMARY_PREFIX);
			add(String((message as { summary?: unknown }).summary ?? ""));
			chars += 24; // the <summary> tags and line breaks
			break;
		default:
			chars += jsonLength(message);
	}
	return Math.ceil(chars / CHARS_PER_TOKEN) + wide + fixed;
}

/** CJK ideographs, kana, hangul and full-width forms (U+2E80 to U+D7AF, U+F900 to U+FFEF). */
const WIDE = /[\u2e80-\ud7af\uf900-\uffef]/;
const WIDE_ALL = /[\u2e80-\ud7af\uf900-\uffef]/g;

/** How many CJK characters `text` holds. A native scan first: most text has none. */
function countWide(text: string): number {
	if (!WIDE.test(text)) return 0;
	return text.match(WIDE_ALL)?.length ?? 0;
}

function textTokens(chars: number): number {
	return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** What a tool's schema is on the wire: a zod / valibot / arktype schema counts as its JSON Schema. */
function wireSchema(tool: Tool): unknown {
	if (!isStandardSchema(tool.parameters)) return tool.parameters;
	try {
		return resolveSchema(tool.parameters, `parameters schema of tool "${tool.name}"`).jsonSchema();
	} catch {
		return undefined; // a schema that cannot be sent fails the request, not the estimate
	}
}

function jsonLength(value: unknown): number {
	try {
		return JSON.stringify(value)?.length ?? 0;
	} catch {
		return 0; // a cycle: count nothing rather than fail the estimate
	}
}
