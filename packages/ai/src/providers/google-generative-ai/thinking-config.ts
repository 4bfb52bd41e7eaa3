import type { Api, Model, SimpleStreamOptions, ThinkingLevel } from "../../types.js";
import { reasoningLevel, thinkingBudget } from "../simple-options.js";
import type { GeminiThinkingLevelName, ResolvedGoogleCompat } from "./google-compat.js";
import type { GoogleOptions, GoogleThinkingLevel } from "./google-options.js";
import type { GeminiThinkingConfig } from "./wire-types.js";

/**
 * `generationConfig.thinkingConfig` for {@link GoogleOptions.thinking}; `undefined` when no
 * thinking option was given (the model's default applies).
 *
 * - enabled: `includeThoughts: true`, plus `thinkingLevel` (lowercase, as in Google's REST
 *   examples) or `thinkingBudget`; when both are given, the model's own control wins. A level
 *   given to a budget model (Gemini 2.x rejects `thinkingLevel`) becomes that level's default
 *   budget, kept within the model's range.
 * - disabled: a budget model gets `thinkingBudget: 0`, or its smallest budget when it cannot turn
 *   thinking off (2.5 Pro: 128); a level model gets its lowest level (`minimal` on Flash, `low` on
 *   Pro), since Gemini 3 cannot turn thinking off. Thoughts are not requested.
 */
export function buildThinkingConfig(
	thinking: GoogleOptions["thinking"],
	compat: ResolvedGoogleCompat,
): GeminiThinkingConfig | undefined {
	if (!thinking) return undefined;
	if (!thinking.enabled) {
		if (compat.thinkingControl === "level") return { thinkingLevel: compat.levels[0] ?? "low" };
		return { thinkingBudget: compat.budgetRange.canDisable ? 0 : compat.budgetRange.min };
	}
	const config: GeminiThinkingConfig = { includeThoughts: true };
	const level = thinking.level && thinking.level !== "THINKING_LEVEL_UNSPECIFIED" ? thinking.level : undefined;
	const budget = thinking.budgetTokens;
	if (compat.thinkingControl === "level") {
		if (level !== undefined) config.thinkingLevel = level.toLowerCase();
		// Gemini 3 still accepts a budget, for backward compatibility.
		else if (budget !== undefined) config.thinkingBudget = budget;
	} else if (budget !== undefined) {
		config.thinkingBudget = budget;
	} else if (level !== undefined) {
		// Gemini 2.x rejects `thinkingLevel`: the level becomes its default budget, within the model's range.
		const range = compat.budgetRange;
		config.thinkingBudget = Math.min(range.max, Math.max(range.min, thinkingBudget(level.toLowerCase() as ThinkingLevel)));
	}
	return config;
}

/**
 * Maps `streamSimple`'s `reasoning` to {@link GoogleOptions.thinking}, and the output limit to send.
 *
 * - A model without reasoning: no thinking option.
 * - No `reasoning` on a reasoning model: `{ enabled: false }` (thinking as low as it goes).
 * - Level models (Gemini 3+): `minimal`/`low`/`medium`/`high` map to the same level, `xhigh` to
 *   `high`; a level the model lacks becomes the next higher one it has (3 Pro: minimal → low,
 *   medium → high).
 * - Budget models (Gemini 2.x): the level's budget from `thinkingBudgets` or the defaults, kept
 *   within the model's range (Flash ≤ 24576, Pro 128–32768, Flash-Lite ≥ 512). Gemini counts
 *   thinking tokens against `maxOutputTokens`, so a caller's `maxTokens` grows by the budget
 *   (capped at the model's maximum), leaving the answer the room the caller asked for.
 *
 * @example
 * simpleThinking(getModel("google", "gemini-2.5-flash")!, { reasoning: "low", maxTokens: 1000 }, compat);
 * // { thinking: { enabled: true, budgetTokens: 2048 }, maxTokens: 3048 }
 */
export function simpleThinking(
	model: Model<Api>,
	options: SimpleStreamOptions | undefined,
	compat: ResolvedGoogleCompat,
): { thinking: GoogleOptions["thinking"]; maxTokens: number | undefined } {
	const maxTokens = options?.maxTokens;
	if (!model.reasoning) return { thinking: undefined, maxTokens };
	const level = reasoningLevel(model, options);
	if (level === undefined) return { thinking: { enabled: false }, maxTokens };
	if (compat.thinkingControl === "level") {
		return { thinking: { enabled: true, level: pickLevel(level, compat.levels) }, maxTokens };
	}
	const range = compat.budgetRange;
	const budget = Math.min(range.max, Math.max(range.min, thinkingBudget(level, options?.thinkingBudgets)));
	const limit = model.maxTokens > 0 ? model.maxTokens : Number.POSITIVE_INFINITY;
	return {
		thinking: { enabled: true, budgetTokens: budget },
		maxTokens: maxTokens === undefined ? undefined : Math.min(limit, maxTokens + budget),
	};
}

const ORDER: readonly GeminiThinkingLevelName[] = ["minimal", "low", "medium", "high"];

function pickLevel(level: ThinkingLevel, supported: readonly GeminiThinkingLevelName[]): GoogleThinkingLevel {
	const wanted = level === "xhigh" ? "high" : level;
	const from = ORDER.indexOf(wanted);
	const chosen = ORDER.slice(from).find((candidate) => supported.includes(candidate)) ?? supported[supported.length - 1] ?? "high";
	return chosen.toUpperCase() as GoogleThinkingLevel;
}
