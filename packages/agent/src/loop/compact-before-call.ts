import { type AssistantMessage, isContextOverflow } from "@pi/ai";
import { compact, CompactionError } from "../compaction/compact.js";
import { createCompactionSummaryMessage } from "../compaction/compaction-summary-message.js";
import { estimateContextTokens } from "../compaction/estimate-tokens.js";
import { findCutPoint } from "../compaction/find-cut-point.js";
import { DEFAULT_KEEP_RECENT_TOKENS, shouldCompact } from "../compaction/should-compact.js";
import type { AgentMessage, CompactionReason } from "../types.js";
import type { LoopRun } from "./loop-run-state.js";
import { guard, RunFailure, redact, errorText } from "./run-failure.js";
import { untilAborted } from "./until-aborted.js";

/** A compaction the loop is about to run. */
interface CompactionPlan {
	reason: CompactionReason;
	/** The transcript to compact: the run's, without the overflowing reply. */
	source: AgentMessage[];
	tokensBefore: number;
	overflowReply: AssistantMessage | undefined;
}

/**
 * True when `message` overflowed the context window and a compaction can make room for one
 * retry: compaction is enabled and the transcript before the reply has something to cut.
 */
export function canRetryAfterOverflow(run: LoopRun, message: AssistantMessage): boolean {
	const settings = run.config.compaction;
	if (!settings?.enabled) return false;
	if (!isContextOverflow(message, run.config.model.contextWindow)) return false;
	return plan(run, message) !== undefined;
}

/**
 * Compacts the run's transcript before a model call when it needs it: when the estimate passes
 * the threshold (`shouldCompact`), or always after an overflow (`overflowReply`, which is left
 * out of the compacted transcript so that the call can be made again). Emits
 * `compaction_start`/`compaction_end` and replaces `run.context.messages`.
 *
 * - An abort stops it: `compaction_end` says `aborted`, the transcript is unchanged, and the
 *   model call that follows ends at once as aborted.
 * - A failure (the summary call failed) emits `compaction_end` with `errorMessage` and throws a
 *   `RunFailure` naming `compaction`: the run ends with that error, the transcript uncompacted.
 */
export async function compactBeforeCall(run: LoopRun, overflowReply?: AssistantMessage): Promise<void> {
	if (run.aborted) return;
	const planned = plan(run, overflowReply);
	if (!planned) return;
	const { config } = run;
	const settings = config.compaction as NonNullable<typeof config.compaction>;
	const { reason, source, tokensBefore } = planned;
	run.compacting = { reason, tokensBefore };
	await run.events.emit({ type: "compaction_start", reason, tokensBefore });

	const model = settings.model ?? config.model;
	const controller = new AbortController();
	const forwardAbort = () => controller.abort(run.signal?.reason);
	if (run.aborted) forwardAbort();
	else run.signal?.addEventListener("abort", forwardAbort, { once: true });
	let outcome: Awaited<ReturnType<typeof compact>> | undefined;
	let failure: unknown;
	try {
		const getApiKey = config.getApiKey;
		const apiKey = (getApiKey ? await guard("getApiKey", () => getApiKey(model.provider)) : undefined) ?? config.apiKey;
		// Stop waiting at once on abort, even for a stream function that ignores the signal.
		const raced = await untilAborted(
			compact(source, {
				model,
				streamFn: run.streamFn,
				keepRecentTokens: settings.keepRecentTokens ?? DEFAULT_KEEP_RECENT_TOKENS,
				customInstructions: settings.customInstructions,
				signal: controller.signal,
				apiKey,
				convertToLlm: config.convertToLlm,
				// The summary is prose: the run's structured output does not apply to it.
				streamOptions: { ...run.streamOptions, onPayload: undefined, output: undefined },
				estimate: { systemPrompt: run.context.systemPrompt, tools: run.context.tools },
			}),
			controller.signal,
		);
		if (!raced.aborted) outcome = raced.value;
	} catch (error) {
		failure = error;
	} finally {
		run.signal?.removeEventListener("abort", forwardAbort);
	}

	if (!outcome) {
		run.compacting = undefined;
		const aborted = run.aborted || (failure instanceof CompactionError && failure.kind === "aborted");
		if (aborted) {
			await run.events.emit({ type: "compaction_end", reason, tokensBefore, aborted: true });
			return;
		}
		const text = redact(errorText(failure), [config.apiKey]);
		await run.events.emit({ type: "compaction_end", reason, tokensBefore, errorMessage: text });
		throw failure instanceof RunFailure ? failure : new RunFailure("compaction", new Error(text));
	}

	const summaryMessage = createCompactionSummaryMessage(outcome.summary, tokensBefore);
	const messages: AgentMessage[] = [summaryMessage, ...source.slice(outcome.firstKeptIndex)];
	run.context.messages = messages;
	run.compacting = undefined;
	const tokensAfter = estimateContextTokens(messages, { systemPrompt: run.context.systemPrompt, tools: run.context.tools }).tokens;
	await run.events.emit({
		type: "compaction_end",
		reason,
		tokensBefore,
		tokensAfter,
		summary: outcome.summary,
		firstKeptIndex: outcome.firstKeptIndex,
		messages: [summaryMessage, ...messages.slice(1)],
		...(planned.overflowReply ? { overflowReply: planned.overflowReply } : {}),
	});
}

/** What to compact now, or `undefined` when no compaction is due or nothing can be cut. */
function plan(run: LoopRun, overflowReply: AssistantMessage | undefined): CompactionPlan | undefined {
	const settings = run.config.compaction;
	if (!settings?.enabled) return undefined;
	const messages = run.context.messages;
	let source = messages;
	if (overflowReply) {
		// The overflowing reply is the newest message; the retry is made without it.
		const index = messages.lastIndexOf(overflowReply);
		source = index >= 0 ? messages.slice(0, index).concat(messages.slice(index + 1)) : messages;
	}
	const tokensBefore = estimateContextTokens(source, { systemPrompt: run.context.systemPrompt, tools: run.context.tools }).tokens;
	if (!overflowReply && !shouldCompact(tokensBefore, run.config.model, settings)) return undefined;
	const cut = findCutPoint(source, settings.keepRecentTokens ?? DEFAULT_KEEP_RECENT_TOKENS);
	if (cut.firstKeptIndex <= 0) return undefined;
	return { reason: overflowReply ? "overflow" : "threshold", source, tokensBefore, overflowReply };
}
