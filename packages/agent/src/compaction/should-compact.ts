import type { Model } from "@pi/ai";

/**
 * When and how much to compact.
 *
 * @example
 * ```ts
 * new Agent({ compaction: { enabled: true, reserveTokens: 20_000 } });
 * ```
 */
export interface CompactionSettings {
	/** Compact automatically. Off unless set. */
	enabled: boolean;
	/** Tokens kept free for the reply (and the estimate's error). Default {@link DEFAULT_RESERVE_TOKENS}. */
	reserveTokens?: number;
	/** Tokens of the newest messages kept verbatim. Default {@link DEFAULT_KEEP_RECENT_TOKENS}. */
	keepRecentTokens?: number;
}

/** Default `reserveTokens`: 16,384. */
export const DEFAULT_RESERVE_TOKENS = 16_384;
/** Default `keepRecentTokens`: 20,000. */
export const DEFAULT_KEEP_RECENT_TOKENS = 20_000;

/**
 * True when a context of `tokens` should be compacted before the next call to `model`:
 * compaction is enabled, the model's context window is known (> 0), and
 * `tokens > model.contextWindow - reserveTokens` (default reserve 16,384).
 *
 * @example
 * ```ts
 * shouldCompact(120_000, { contextWindow: 128_000 }, { enabled: true }); // true: 120,000 > 111,616
 * ```
 */
export function shouldCompact(tokens: number, model: Pick<Model, "contextWindow">, settings: CompactionSettings): boolean {
	if (!settings.enabled) return false;
	const window = model.contextWindow;
	if (!(window > 0)) return false;
	return tokens > window - (settings.reserveTokens ?? DEFAULT_RESERVE_TOKENS);
}
