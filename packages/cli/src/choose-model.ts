/**
 * Which model a prompt goes to, and with which key: `-m` (plus `--base-url`), else the model of
 * the conversation being continued, else the configured default (`PI_AI_MODEL`, config.json),
 * else the first of a few cheap models whose provider has a key.
 */
import type { Api, Model } from "@pi/ai";
import { getEnvApiKeyNames, getModel } from "@pi/ai";
import type { ThinkingLevel } from "@pi/agent-core";
import { CliError } from "./cli-error.js";
import { configuredModel } from "./config.js";
import { keyVariableNames, readStoredKeys, resolveApiKey } from "./key-store.js";
import { findCatalogModel, modelAtBaseUrl, parseModelSpec, unknownModelError } from "./model-spec.js";

/** Tried in order when nothing names a model: the first whose provider has a key wins. */
export const FALLBACK_MODELS: readonly [string, string][] = [
	["anthropic", "claude-haiku-4-5"],
	["openai", "gpt-4o-mini"],
	["google", "gemini-2.5-flash"],
];

/** The model, thinking level and key a prompt runs with. */
export interface ChosenModel {
	model: Model<Api>;
	/** `provider/id`, for the usage line and the spinner. */
	label: string;
	/** From the spec's `:level`; `undefined` leaves the conversation's (or the default, off). */
	thinking?: ThinkingLevel;
	apiKey: string | undefined;
}

/** What the choice may draw on besides the flags. */
export interface ModelChoiceInput {
	/** `-m` */
	spec?: string;
	/** `--base-url` */
	baseUrl?: string;
	/** The model of a continued conversation. */
	resumedModel?: Model<Api>;
}

/**
 * Picks the model. Throws a `CliError` for an unknown model (with the closest ids) and for a
 * missing key (naming the variable to set), before any request is made.
 */
export function chooseModel(input: ModelChoiceInput): ChosenModel {
	const stored = readStoredKeys();
	const hasKey = (provider: string) => resolveApiKey(provider, stored).source !== undefined;
	let model: Model<Api>;
	let thinking: ThinkingLevel | undefined;
	const specText = input.spec ?? (input.resumedModel ? undefined : configuredModel()?.spec);
	if (specText !== undefined) {
		const spec = parseModelSpec(specText);
		thinking = spec.thinking;
		if (input.baseUrl) model = modelAtBaseUrl(spec, input.baseUrl, hasKey);
		else model = findCatalogModel(spec, hasKey) ?? throwError(unknownModelError(spec));
	} else if (input.resumedModel) {
		model = input.baseUrl ? { ...input.resumedModel, baseUrl: input.baseUrl.replace(/\/+$/, "") } : input.resumedModel;
	} else {
		if (input.baseUrl) throw new CliError("--base-url needs -m, the model id the server knows (e.g. -m llama3.1)");
		const fallback = FALLBACK_MODELS.map(([provider, id]) => getModel(provider, id)).find((candidate) => candidate && hasKey(candidate.provider));
		if (!fallback) {
			// Name the API-key variable of each (ANTHROPIC_API_KEY rather than the OAuth token's).
			const variables = FALLBACK_MODELS.map(([provider]) => getEnvApiKeyNames(provider)?.find((name) => name.endsWith("_API_KEY"))).filter(Boolean);
			throw new CliError(`no API key is set: set ${variables.join(", ")} (or run pi-ai keys set PROVIDER), or pick a model with -m`);
		}
		model = fallback;
	}
	const { key } = resolveApiKey(model.provider, stored);
	// Only the provider's own API is known to need a key: a --base-url server (now or in the
	// conversation being continued) decides for itself, and local ones need none.
	const atProvider = getModel(model.provider, model.id)?.baseUrl === model.baseUrl;
	if (!key && atProvider) {
		const variables = keyVariableNames(model.provider);
		if (variables.length > 0) {
			throw new CliError(`no API key for ${model.provider}: set ${variables.join(" or ")}, or run pi-ai keys set ${model.provider}`);
		}
	}
	return { model, label: `${model.provider}/${model.id}`, thinking, apiKey: key };
}

function throwError(error: Error): never {
	throw error;
}
