import type { StreamOptions } from "../../types.js";

/**
 * A Gemini 3 thinking level, spelled as Google's SDK enum. Which levels a model accepts varies:
 * Flash models take all four, Gemini 3 Pro `LOW`/`HIGH`, Gemini 3.1 Pro `LOW`/`MEDIUM`/`HIGH`.
 * `THINKING_LEVEL_UNSPECIFIED` sends no level (the model's default).
 */
export type GoogleThinkingLevel = "THINKING_LEVEL_UNSPECIFIED" | "MINIMAL" | "LOW" | "MEDIUM" | "HIGH";

/**
 * Options of {@link streamGoogle}: the common ones plus Gemini's own.
 *
 * @example
 * streamGoogle(model, context, { toolChoice: "any", thinking: { enabled: true, level: "LOW" } });
 */
export interface GoogleOptions extends StreamOptions {
	/**
	 * `toolConfig.functionCallingConfig.mode`: `auto` (the model decides), `any` (it must call a
	 * function), `none` (it must not). Sent only when the context has tools. Default: not sent (auto).
	 */
	toolChoice?: "auto" | "none" | "any";
	/**
	 * `generationConfig.thinkingConfig`. Omitted: nothing is sent and the model uses its default.
	 *
	 * - `enabled: true` asks for thought summaries (`includeThoughts`), with `level`
	 *   (`thinkingLevel`, Gemini 3+) or `budgetTokens` (`thinkingBudget`, Gemini 2.x); when both are
	 *   given, the one the model's generation uses wins.
	 * - `enabled: false` turns thinking down as far as the model allows: budget 0 (Flash), budget
	 *   128 (2.5 Pro cannot turn it off), or the lowest level (Gemini 3 cannot turn it off).
	 */
	thinking?: {
		enabled: boolean;
		/** Reasoning tokens (`thinkingBudget`); -1 lets the model decide. */
		budgetTokens?: number;
		level?: GoogleThinkingLevel;
	};
}
