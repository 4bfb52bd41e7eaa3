/**
 * What a proxy's operator lets a client spend per call: the caps on the options that cost money
 * (output tokens, reasoning, prompt-cache retention), applied to the options the client sent.
 */
import type { CacheRetention, SimpleStreamOptions, ThinkingLevel } from "@pi/ai";

/** Caps on what one proxied call may cost. Each cap is off when absent. */
export interface ProxyLimits {
	/**
	 * The most output tokens a call may ask for. A call that sets none gets this many, unless the
	 * model cannot write more than that anyway (its `maxTokens` is at most the cap).
	 */
	maxTokens?: number;
	/** The highest reasoning level a call may ask for (`minimal` < `low` < `medium` < `high` < `xhigh`). */
	reasoning?: ThinkingLevel;
	/** The longest prompt-cache retention a call may ask for (`none` < `short` < `long`); a call that sets none gets at most this. */
	cacheRetention?: CacheRetention;
	/**
	 * What happens to a request over a cap: `clamp` (default) lowers it to the cap; `refuse`
	 * answers 400 naming the option and the cap.
	 */
	exceed?: "clamp" | "refuse";
}

const REASONING: readonly ThinkingLevel[] = ["minimal", "low", "medium", "high", "xhigh"];
const RETENTION: readonly CacheRetention[] = ["none", "short", "long"];

/**
 * Checks the client's cost options and applies `limits` to them in place: returns a message
 * naming the option that is malformed or over its cap (with `exceed: "refuse"`), else `undefined`.
 */
export function applyProxyLimits(options: SimpleStreamOptions, limits: ProxyLimits | undefined, modelMaxTokens: number): string | undefined {
	const refuse = limits?.exceed === "refuse";
	if (options.maxTokens !== undefined && !(Number.isInteger(options.maxTokens) && options.maxTokens > 0)) return "body.options.maxTokens must be a positive integer.";
	if (options.reasoning !== undefined && !REASONING.includes(options.reasoning)) return `body.options.reasoning must be one of ${REASONING.join(", ")}.`;
	if (options.cacheRetention !== undefined && !RETENTION.includes(options.cacheRetention)) return `body.options.cacheRetention must be one of ${RETENTION.join(", ")}.`;
	if (options.temperature !== undefined && !(typeof options.temperature === "number" && Number.isFinite(options.temperature))) return "body.options.temperature must be a number.";
	if (limits?.maxTokens !== undefined) {
		const cap = limits.maxTokens;
		if (options.maxTokens !== undefined && options.maxTokens > cap && refuse) return `body.options.maxTokens ${options.maxTokens} is over this proxy's cap of ${cap}.`;
		if (options.maxTokens !== undefined) options.maxTokens = Math.min(options.maxTokens, cap);
		else if (!(modelMaxTokens > 0 && modelMaxTokens <= cap)) options.maxTokens = cap;
		// A thinking budget is output tokens too.
		if (options.thinkingBudgets && typeof options.thinkingBudgets === "object") {
			const budgets: Record<string, unknown> = { ...options.thinkingBudgets };
			for (const [level, budget] of Object.entries(budgets)) if (typeof budget !== "number" || budget > cap) budgets[level] = cap;
			options.thinkingBudgets = budgets as SimpleStreamOptions["thinkingBudgets"];
		}
	}
	if (limits?.reasoning !== undefined && options.reasoning !== undefined) {
		if (REASONING.indexOf(options.reasoning) > REASONING.indexOf(limits.reasoning)) {
			if (refuse) return `body.options.reasoning "${options.reasoning}" is over this proxy's cap of "${limits.reasoning}".`;
			options.reasoning = limits.reasoning;
		}
	}
	if (limits?.cacheRetention !== undefined) {
		// Unset means `short`, the providers' default.
		const asked = options.cacheRetention ?? "short";
		if (RETENTION.indexOf(asked) > RETENTION.indexOf(limits.cacheRetention)) {
			if (refuse && options.cacheRetention !== undefined) return `body.options.cacheRetention "${asked}" is over this proxy's cap of "${limits.cacheRetention}".`;
			options.cacheRetention = limits.cacheRetention;
		}
	}
	return undefined;
}
