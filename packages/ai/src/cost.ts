import type { Api, Model, Usage } from "./types.js";

/**
 * Fills `usage.cost` from the model's prices ($ per million tokens) and returns it.
 *
 * @example
 * const cost = calculateCost(model, message.usage); // cost.total in US dollars
 */
export function calculateCost<TApi extends Api>(model: Model<TApi>, usage: Usage): Usage["cost"] {
	const cost = usage.cost;
	cost.input = (usage.input * model.cost.input) / 1_000_000;
	cost.output = (usage.output * model.cost.output) / 1_000_000;
	cost.cacheRead = (usage.cacheRead * model.cost.cacheRead) / 1_000_000;
	cost.cacheWrite = (usage.cacheWrite * model.cost.cacheWrite) / 1_000_000;
	cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
	return cost;
}
