import type { Api, Model } from "../types.js";

/**
 * `model` priced as a deferred reply that the provider runs as a batch: its catalog `batchCost`
 * when it has one, else half of `cost` (Anthropic and Google both bill batch requests at 50% of
 * the standard price). The builder of such a reply uses it, so `usage.cost` is what it costs.
 * (A Responses background job is billed at the standard price and does not use it.)
 *
 * @example
 * withDeferredPrices(model).cost.input // model.cost.input / 2 without a catalog batch price
 */
export function withDeferredPrices<TApi extends Api>(model: Model<TApi>): Model<TApi> {
	const cost = model.batchCost ?? {
		input: model.cost.input / 2,
		output: model.cost.output / 2,
		cacheRead: model.cost.cacheRead / 2,
		cacheWrite: model.cost.cacheWrite / 2,
	};
	return { ...model, cost };
}
