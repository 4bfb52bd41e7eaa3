/**
 * The model catalog: look models up by provider and id, list them, and price a reply's usage
 * (`calculateCost`, re-exported from `cost.ts`).
 *
 * The data lives in `models.generated.ts` (plain object literals, generated from a models.dev
 * snapshot). Every model handed out here is a fresh copy: callers may change `baseUrl`,
 * `headers`, `cost` or anything else without affecting the catalog or other callers.
 */
import { MODELS } from "./models.generated.js";
import type { Api, Model, Provider } from "./types.js";

// Pricing lives in cost.ts (the message builder uses it without the catalog); it belongs to this
// module's public surface too: `calculateCost(model, usage)` fills `usage.cost` and returns it.
export { calculateCost } from "./cost.js";

type Catalog = typeof MODELS;

/** A provider that has models in the catalog, e.g. `"openai"` or `"anthropic"`. */
export type CatalogProvider = keyof Catalog;

/** The catalog model ids of provider `P`, e.g. `KnownModelId<"openai">` includes `"gpt-4o"`. */
export type KnownModelId<P extends CatalogProvider> = Extract<keyof Catalog[P], string>;

/** The wire API of a catalog model, e.g. `KnownModelApi<"anthropic", "claude-sonnet-4-20250514">` is `"anthropic-messages"`. */
export type KnownModelApi<P extends CatalogProvider, Id extends KnownModelId<P>> = Catalog[P][Id] extends {
	api: infer TApi extends Api;
}
	? TApi
	: Api;

// The generated literal is typed precisely for autocompletion; lookups by arbitrary strings read it
// through this wider view.
const catalog: Readonly<Record<string, Readonly<Record<string, Model>>>> = MODELS;

/** A copy deep enough that no caller can reach the catalog's own objects. */
function copyModel<TApi extends Api>(model: Model<TApi>): Model<TApi> {
	const copy: Model<TApi> = { ...model, input: [...model.input], cost: { ...model.cost } };
	if (model.headers) copy.headers = { ...model.headers };
	if (model.compat) copy.compat = { ...model.compat };
	return copy;
}

function providerTable(provider: string): Readonly<Record<string, Model>> | undefined {
	return Object.hasOwn(catalog, provider) ? catalog[provider] : undefined;
}

/**
 * Looks a model up in the catalog.
 *
 * With literal arguments, the provider and id autocomplete and the result is typed with the model's
 * wire API, e.g. `getModel("openai", "gpt-4o")` is a `Model<"openai-responses">`. Any other strings
 * are accepted too and give `Model<Api> | undefined`. At run time an unknown provider or id gives
 * `undefined`; nothing throws.
 *
 * Each call returns a fresh copy that the caller may change freely.
 *
 * @example
 * const model = getModel("anthropic", "claude-sonnet-4-20250514");
 * model.maxTokens = 4096; // affects only this copy
 *
 * const maybe = getModel("openrouter", userInput); // Model<Api> | undefined
 */
export function getModel<P extends CatalogProvider, Id extends KnownModelId<P>>(provider: P, modelId: Id): Model<KnownModelApi<P, Id>>;
export function getModel(provider: Provider, modelId: string): Model<Api> | undefined;
export function getModel(provider: Provider, modelId: string): Model<Api> | undefined {
	const table = providerTable(provider);
	if (!table || !Object.hasOwn(table, modelId)) return undefined;
	return copyModel(table[modelId]!);
}

/**
 * All catalog models of a provider, sorted by id, as fresh copies. An unknown provider gives `[]`.
 *
 * @example
 * const cheapest = getModels("groq").sort((a, b) => a.cost.input - b.cost.input)[0];
 */
export function getModels<P extends CatalogProvider>(provider: P): Model<KnownModelApi<P, KnownModelId<P>>>[];
export function getModels(provider: Provider): Model<Api>[];
export function getModels(provider: Provider): Model<Api>[] {
	const table = providerTable(provider);
	if (!table) return [];
	return Object.keys(table)
		.sort()
		.map((id) => copyModel(table[id]!));
}

/**
 * The providers that have models in the catalog, sorted. Providers that need no catalog, such as a
 * local `ollama` server, are not listed: describe those models yourself (see docs/models.md).
 *
 * @example
 * for (const provider of getProviders()) console.log(provider, getModels(provider).length);
 */
export function getProviders(): CatalogProvider[] {
	return (Object.keys(MODELS) as CatalogProvider[]).sort();
}

/**
 * Whether two models are the same catalog entry: same `provider` and same `id`. Either side being
 * `null` or `undefined` gives `false`. Other fields (a changed `baseUrl`, say) are not compared.
 *
 * @example
 * modelsAreEqual(getModel("openai", "gpt-4o"), current) // true when `current` is any copy of it
 */
export function modelsAreEqual(a: Model<Api> | null | undefined, b: Model<Api> | null | undefined): boolean {
	if (!a || !b) return false;
	return a.id === b.id && a.provider === b.provider;
}
