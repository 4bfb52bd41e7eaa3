/**
 * Reads `@pydantic/genai-prices`, a maintained price list that gives input, output, cache-read and
 * cache-write prices (llm-zoo has no cache-write price, and models.dev's snapshot is older).
 */
import { calcPrice, type ModelPrice } from "@pydantic/genai-prices";
import { type PriceFacts, priceValue } from "./model-facts.js";

/** The npm package this module reads. */
export const GENAI_PRICES_PACKAGE = "@pydantic/genai-prices";

/** A price as genai-prices stores it: a number, or a tiered price whose `base` applies below the first tier. */
function basePrice(value: ModelPrice[string]): number | undefined {
	if (typeof value === "number") return priceValue(value);
	// Tiered prices (Gemini and Claude above 200k input tokens) start at `base`; the catalog keeps one price.
	if (value !== null && typeof value === "object" && "base" in value) return priceValue(value.base);
	return undefined;
}

/** A price found for one model, and which genai-prices model it came from. */
export interface MatchedPrices {
	prices: PriceFacts;
	/** The genai-prices model id whose match rule took the catalog id, e.g. `claude-haiku-4-5`. */
	matchedId: string;
}

/**
 * The prices genai-prices gives for an API model id at one instant, or `undefined` when it has
 * none. The id is matched by genai-prices' own rules (the ones its cost calculator uses for the
 * model names that APIs report, e.g. `claude-haiku-4-5-20251001` → `claude-haiku-4-5`), within
 * that provider and the fallback providers it names. Prices that change over time (a start date,
 * DeepSeek's peak hours) are read at `at`, which the caller fixes so the output is deterministic.
 *
 * @example
 * pricesAt("anthropic", "claude-haiku-4-5-20251001", new Date("2026-11-29T12:00:00Z"))?.prices;
 * // → { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 }
 */
export function pricesAt(genaiProvider: string, modelId: string, at: Date): MatchedPrices | undefined {
	const result = calcPrice({}, modelId, { providerId: genaiProvider, timestamp: at });
	if (!result) return undefined;
	const price = result.model_price;
	return {
		matchedId: result.model.id,
		prices: {
			input: basePrice(price.input_mtok),
			output: basePrice(price.output_mtok),
			cacheRead: basePrice(price.cache_read_mtok),
			cacheWrite: basePrice(price.cache_write_mtok),
		},
	};
}
