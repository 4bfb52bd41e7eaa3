/**
 * Reads `llm-zoo`, a hand-maintained registry of the vendors' own APIs (Anthropic, OpenAI, Google,
 * xAI, DeepSeek, ...) that is fresher than the models.dev snapshot but covers fewer providers.
 */
import { MODEL_CONFIGS, type ModelConfig } from "llm-zoo";
import { type ModelFacts, priceValue, tokenCount } from "./model-facts.js";

/** The npm package this module reads. */
export const LLM_ZOO_PACKAGE = "llm-zoo";

/** One provider's models by API id (dated ids and their undated aliases), and what was left out. */
export interface LlmZooProvider {
	models: Map<string, ModelFacts>;
	/** Entries or aliases left out, with why, e.g. `gpt-4.5-preview: retired`. */
	excluded: string[];
}

/**
 * Why an entry does not describe a plain request to the vendor's API, or `undefined` to keep it.
 * llm-zoo also lists request presets of one model (a "fast" service tier at premium prices, a
 * "pro" reasoning mode) and models served elsewhere; those would give the plain id wrong data.
 */
function exclusionReason(config: ModelConfig): string | undefined {
	if (config.retired) return "retired";
	if (config.openRouterOnly) return "OpenRouter only";
	if (config.serviceTier) return `service tier ${config.serviceTier}`;
	if (config.capabilities.reasoningMode) return `reasoning mode ${config.capabilities.reasoningMode}`;
	if (config.baseUrl) return `own endpoint ${config.baseUrl}`;
	return undefined;
}

function byCodeUnit(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}

/** The cache-read price, which llm-zoo gives as a fraction of the input price. */
function cacheReadPrice(config: ModelConfig): number | undefined {
	const { supportsPromptCaching, supportsAutoPromptCaching, cacheDiscountFactor } = config.capabilities;
	if (!(supportsPromptCaching || supportsAutoPromptCaching)) return undefined;
	const factor = priceValue(cacheDiscountFactor);
	const input = priceValue(config.inputPrice);
	if (factor === undefined || factor > 1 || input === undefined) return undefined;
	// Twelve significant digits drop the binary noise of the product (0.435 × 1/120).
	return Number((input * factor).toPrecision(12));
}

/**
 * What the presets of one API id say together. llm-zoo lists a model once per preset, e.g.
 * "Haiku 4.5" and "Haiku 4.5 (Thinking)" for `claude-haiku-4-5-20251001`: the model can reason
 * and read images if any preset does; limits, prices and the name come from the preset that does
 * not turn thinking on (the first by registry key when several do or none does).
 */
function combinePresets(presets: ModelConfig[]): ModelFacts {
	const ordered = [...presets].sort(
		(a, b) => Number(a.capabilities.supportsReasoning) - Number(b.capabilities.supportsReasoning) || byCodeUnit(a.name, b.name),
	);
	const primary = ordered[0]!;
	return {
		name: primary.label?.trim() || undefined,
		reasoning: presets.some((preset) => preset.capabilities.supportsReasoning),
		imageInput: presets.some((preset) => preset.capabilities.supportsVision),
		contextWindow: tokenCount(primary.contextWindow),
		maxTokens: tokenCount(primary.maxOutputTokens),
		cost: { input: priceValue(primary.inputPrice), output: priceValue(primary.outputPrice), cacheRead: cacheReadPrice(primary) },
	};
}

/**
 * The models llm-zoo lists for one provider (`ModelProvider` value, e.g. `"anthropic"`), under
 * their exact API id (`fullName`) and, when it differs, their undated alias (`shortName`, e.g.
 * `claude-haiku-4-5` next to `claude-haiku-4-5-20251001`). An alias that names another entry, or
 * that two entries claim, is left out rather than guessed.
 *
 * @example
 * loadLlmZooProvider("anthropic").models.get("claude-haiku-4-5")?.maxTokens; // 64000
 */
export function loadLlmZooProvider(provider: string): LlmZooProvider {
	const excluded: string[] = [];
	const presetsById = new Map<string, ModelConfig[]>();
	const keys = Object.keys(MODEL_CONFIGS).sort(byCodeUnit);
	for (const key of keys) {
		const config = MODEL_CONFIGS[key]!;
		if (config.provider !== provider) continue;
		const reason = exclusionReason(config);
		if (reason) {
			excluded.push(`${config.fullName} (${key}): ${reason}`);
			continue;
		}
		const presets = presetsById.get(config.fullName) ?? [];
		presets.push(config);
		presetsById.set(config.fullName, presets);
	}

	const models = new Map<string, ModelFacts>();
	const aliasOwners = new Map<string, Set<string>>();
	for (const [id, presets] of presetsById) {
		models.set(id, combinePresets(presets));
		for (const preset of presets) {
			if (!preset.shortName || preset.shortName === id) continue;
			const owners = aliasOwners.get(preset.shortName) ?? new Set<string>();
			owners.add(id);
			aliasOwners.set(preset.shortName, owners);
		}
	}
	for (const [alias, owners] of [...aliasOwners].sort(([a], [b]) => byCodeUnit(a, b))) {
		if (presetsById.has(alias)) {
			excluded.push(`alias ${alias}: also an id of its own`);
		} else if (owners.size > 1) {
			excluded.push(`alias ${alias}: claimed by ${[...owners].sort(byCodeUnit).join(", ")}`);
		} else {
			models.set(alias, models.get([...owners][0]!)!);
		}
	}
	return { models, excluded };
}
