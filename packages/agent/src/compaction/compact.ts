import { type AssistantMessage, type Message, type Model, type SimpleStreamOptions, streamSimple } from "@pi/ai";
import { defaultConvertToLlm } from "../loop/default-convert-to-llm.js";
import type { AgentMessage, CompactionSummaryMessage, StreamFn } from "../types.js";
import { isCompactionSummary } from "./compaction-summary-message.js";
import { CHARS_PER_TOKEN, type EstimateOptions, estimateContextTokens, estimateMessageTokens } from "./estimate-tokens.js";
import { findCutPoint } from "./find-cut-point.js";
import { DEFAULT_KEEP_RECENT_TOKENS } from "./should-compact.js";
import { buildSummaryPrompt, SUMMARY_SYSTEM_PROMPT } from "./summary-prompt.js";

/** Options of {@link compact}. */
export interface CompactOptions {
	/** The model that writes the summary (the `Agent` passes its own unless `compaction.model` is set). */
	model: Model;
	/** Streams the summary call. Default `streamSimple` from `@pi/ai`. */
	streamFn?: StreamFn;
	/** Tokens of the newest messages kept verbatim. Default 20,000. */
	keepRecentTokens?: number;
	/** Added to the summary prompt, e.g. "keep every SQL query verbatim". */
	customInstructions?: string;
	/** Aborts the summary call; `compact` then rejects with a {@link CompactionError} of kind `aborted`. */
	signal?: AbortSignal;
	/** The API key for the summary call. */
	apiKey?: string;
	/** Turns agent messages into LLM messages for the record. Default `defaultConvertToLlm`. */
	convertToLlm?: (messages: AgentMessage[]) => Message[] | Promise<Message[]>;
	/** Output budget of the summary call. Default the model's `maxTokens`, at most 8,192. */
	maxSummaryTokens?: number;
	/** Passed to `estimateContextTokens` for `tokensBefore` (the system prompt and tools, counted when no usage does). */
	estimate?: EstimateOptions;
	/** More options for the summary call (headers, `sessionId`, …); `signal`, `apiKey` and `maxTokens` above win. */
	streamOptions?: SimpleStreamOptions;
}

/** What {@link compact} resolves to. */
export interface CompactionResult {
	/** The new summary; it carries the previous one forward. */
	summary: string;
	/** Index in the input of the first kept message: the compacted transcript is the summary, then `messages.slice(firstKeptIndex)`. */
	firstKeptIndex: number;
	/** The estimated context size before compacting (see `estimateContextTokens`). */
	tokensBefore: number;
}

function lastSummaryIndex(messages: readonly AgentMessage[]): number {
	for (let index = messages.length - 1; index >= 0; index--) if (isCompactionSummary(messages[index])) return index;
	return -1;
}

/** Why {@link compact} failed. */
export type CompactionErrorKind = "nothing-to-compact" | "aborted" | "failed";

/** A compaction that did not happen; the transcript is unchanged. */
export class CompactionError extends Error {
	override readonly name = "CompactionError";

	constructor(
		/**
		 * `nothing-to-compact`: the messages after the last summary fit `keepRecentTokens`, or no
		 * safe cut leaves something to summarise and something to keep; `aborted`: the signal;
		 * `failed`: the summary call.
		 */
		readonly kind: CompactionErrorKind,
		message: string,
		options?: { cause?: unknown },
	) {
		super(message, options);
	}
}

/**
 * Summarises the part of `messages` before the cut ({@link findCutPoint}) with a model, so that
 * the transcript becomes the summary followed by the kept messages. Does not change `messages`.
 *
 * The summary is structured (goal, progress, decisions, open work, files and identifiers; see
 * docs/compaction.md). When the transcript already starts from a summary, that summary is
 * carried forward into the new one, so a long session can compact again and again without
 * forgetting its beginning. A split turn's beginning is summarised as a part of its own.
 *
 * It never refuses while something can be summarised: when no cut keeps `keepRecentTokens`
 * and still summarises something (one large message right after the last summary), it cuts at
 * the oldest safe point after it ({@link findCutPoint}).
 *
 * Rejects with a {@link CompactionError}: `nothing-to-compact`, `aborted` (the signal), or
 * `failed` (the summary call ended with an error, or with no text). API keys never appear in it.
 *
 * @example
 * ```ts
 * const { summary, firstKeptIndex } = await compact(agent.state.messages, { model, keepRecentTokens: 8_000 });
 * agent.state.messages = [createCompactionSummaryMessage(summary, tokensBefore), ...agent.state.messages.slice(firstKeptIndex)];
 * ```
 */
export async function compact(messages: readonly AgentMessage[], options: CompactOptions): Promise<CompactionResult> {
	const keep = options.keepRecentTokens ?? DEFAULT_KEEP_RECENT_TOKENS;
	const cut = findCutPoint(messages, keep);
	if (cut.firstKeptIndex <= 0) {
		let after = 0;
		for (let index = lastSummaryIndex(messages) + 1; index < messages.length; index++) after += estimateMessageTokens(messages[index] as AgentMessage);
		const fits = after < keep;
		throw new CompactionError(
			"nothing-to-compact",
			fits
				? `nothing to compact: the messages after the last summary fit keepRecentTokens (${keep})`
				: "nothing to compact: no cut after the last summary leaves a message to summarise and one to keep without separating a tool call from its result",
		);
	}
	if (options.signal?.aborted) throw new CompactionError("aborted", "compaction was aborted");
	const tokensBefore = estimateContextTokens(messages, options.estimate).tokens;

	let previous: CompactionSummaryMessage | undefined;
	let start = 0;
	for (let index = cut.firstKeptIndex - 1; index >= 0; index--) {
		const message = messages[index];
		if (isCompactionSummary(message)) {
			previous = message;
			start = index + 1;
			break;
		}
	}
	const convert = options.convertToLlm ?? defaultConvertToLlm;
	const historyEnd = cut.splitTurn ? cut.turnStartIndex : cut.firstKeptIndex;
	const history = await convert(messages.slice(start, historyEnd));
	const turnBeginning = cut.splitTurn ? await convert(messages.slice(cut.turnStartIndex, cut.firstKeptIndex)) : undefined;

	const model = options.model;
	const maxTokens = options.maxSummaryTokens ?? Math.min(8_192, model.maxTokens > 0 ? model.maxTokens : 8_192);
	// Leave the summary call room for its instructions and its answer.
	const maxRecordChars = model.contextWindow > 0 ? Math.max(4_000, (model.contextWindow - maxTokens - 2_000) * CHARS_PER_TOKEN * 0.8) : undefined;
	const prompt = buildSummaryPrompt({
		previousSummary: previous?.summary,
		history,
		turnBeginning,
		customInstructions: options.customInstructions,
		maxRecordChars,
	});

	const streamFn = options.streamFn ?? streamSimple;
	let reply: AssistantMessage;
	try {
		const stream = await streamFn(
			model,
			{ systemPrompt: SUMMARY_SYSTEM_PROMPT, messages: [{ role: "user", content: [{ type: "text", text: prompt }], timestamp: Date.now() }] },
			{ ...options.streamOptions, apiKey: options.apiKey ?? options.streamOptions?.apiKey, signal: options.signal, maxTokens },
		);
		reply = await stream.result();
	} catch (error) {
		if (options.signal?.aborted) throw new CompactionError("aborted", "compaction was aborted", { cause: error });
		throw new CompactionError("failed", `the summary call failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
	}
	if (reply.stopReason === "aborted" || options.signal?.aborted) throw new CompactionError("aborted", "compaction was aborted");
	if (reply.stopReason === "error") throw new CompactionError("failed", `the summary call failed: ${reply.errorMessage ?? "unknown error"}`);
	const summary = reply.content
		.filter((block) => block.type === "text")
		.map((block) => block.text)
		.join("")
		.trim();
	if (!summary) throw new CompactionError("failed", `the summary call returned no text (stop reason ${reply.stopReason})`);
	return { summary, firstKeptIndex: cut.firstKeptIndex, tokensBefore };
}
