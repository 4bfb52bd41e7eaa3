import { effectiveThinkingLevel } from "../thinking-levels.js";
import type { Api, Model, SimpleStreamOptions, ThinkingBudgets, ThinkingLevel } from "../types.js";

/** Default thinking budgets in tokens, for providers with budget-based thinking. */
export const DEFAULT_THINKING_BUDGETS: Required<ThinkingBudgets> = {
	minimal: 1024,
	low: 2048,
	medium: 8192,
	high: 16384,
	xhigh: 32768,
};

/**
 * The reasoning level to request from `model`: `undefined` when none was asked for or the model
 * cannot reason, so that non-reasoning models never get reasoning parameters.
 */
export function reasoningLevel<TApi extends Api>(model: Model<TApi>, options?: SimpleStreamOptions): ThinkingLevel | undefined {
	if (!model.reasoning || options?.reasoning === undefined) return undefined;
	// A model with per-model levels gets the nearest level it takes (Groq qwen3: only `high`).
	return effectiveThinkingLevel(model, options.reasoning);
}

/** The token budget for `level`, from `options.thinkingBudgets` or the defaults. */
export function thinkingBudget(level: ThinkingLevel, budgets?: ThinkingBudgets): number {
	return budgets?.[level] ?? DEFAULT_THINKING_BUDGETS[level];
}

/**
 * The output limit to send with a thinking budget: it must exceed the budget (Anthropic), so the
 * budget is added to the caller's limit, capped at the model's maximum; when that cap leaves too
 * little room, the budget shrinks to leave at least 1024 tokens of answer.
 */
export function maxTokensWithThinking(
	model: Model<Api>,
	requestedMaxTokens: number | undefined,
	budget: number,
): { maxTokens: number; budget: number } {
	const answer = requestedMaxTokens ?? Math.min(model.maxTokens, 32_000);
	const maxTokens = Math.min(model.maxTokens > 0 ? model.maxTokens : answer + budget, answer + budget);
	const room = Math.max(1024, maxTokens - 1024);
	return { maxTokens, budget: Math.min(budget, room) };
}
