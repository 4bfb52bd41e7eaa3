/**
 * `-m provider/model[:thinking]`: parsing the spec, and finding the model it names in the catalog
 * of `@pi/ai` (or describing a model outside it, for `--base-url` servers).
 */
import type { Api, Model } from "@pi/ai";
import { getModel, getModels, getProviders } from "@pi/ai";
import type { ThinkingLevel } from "@pi/agent-core";
import { CliError } from "./cli-error.js";
import { closestMatches } from "./closest-matches.js";
import { COMPATIBLE_PROVIDER } from "./key-store.js";

/** The levels accepted after the last `:` of a spec. */
export const THINKING_LEVELS: readonly ThinkingLevel[] = ["off", "minimal", "low", "medium", "high", "xhigh"];

/** A parsed `-m` value. */
export interface ModelSpec {
	/** The text before the first `/`, when there is one (it may turn out to be part of the id). */
	provider?: string;
	/** The rest; with `provider` unset, the whole spec (minus the thinking suffix). */
	id: string;
	/** The whole spec minus the thinking suffix, e.g. `meta-llama/Llama-3.1-8B`. */
	full: string;
	/** From a `:level` suffix. */
	thinking?: ThinkingLevel;
}

/**
 * Splits a spec. The `:level` suffix counts only when it is a thinking level, so Ollama ids such
 * as `llama3.1:8b` keep their tag.
 *
 * @example
 * parseModelSpec("anthropic/claude-haiku-4-5:high") // { provider: "anthropic", id: "claude-haiku-4-5", full: "anthropic/claude-haiku-4-5", thinking: "high" }
 */
export function parseModelSpec(spec: string): ModelSpec {
	let full = spec.trim();
	let thinking: ThinkingLevel | undefined;
	const colon = full.lastIndexOf(":");
	if (colon >= 0) {
		const suffix = full.slice(colon + 1) as ThinkingLevel;
		if (THINKING_LEVELS.includes(suffix)) {
			thinking = suffix;
			full = full.slice(0, colon);
		}
	}
	if (full === "") throw new CliError(`-m ${JSON.stringify(spec)} names no model; expected provider/model[:thinking], e.g. anthropic/claude-haiku-4-5:high`);
	const slash = full.indexOf("/");
	if (slash <= 0) return { id: full, full, thinking };
	return { provider: full.slice(0, slash), id: full.slice(slash + 1), full, thinking };
}

/** Every catalog model as `provider/id`. */
export function catalogIds(): string[] {
	return getProviders().flatMap((provider) => getModels(provider).map((model) => `${provider}/${model.id}`));
}

/**
 * The catalog model a spec names.
 *
 * - `provider/id`: that entry.
 * - `id` alone, or `provider/…` where the provider part is really part of an id (OpenRouter's
 *   `anthropic/claude-sonnet-4`): the first provider with that id, preferring one whose key is set.
 *
 * @returns `undefined` when the catalog has no such model.
 */
export function findCatalogModel(spec: ModelSpec, hasKey: (provider: string) => boolean): Model<Api> | undefined {
	if (spec.provider) {
		const exact = getModel(spec.provider, spec.id);
		if (exact) return exact;
	}
	const holders = getProviders().filter((provider) => getModel(provider, spec.full) !== undefined);
	const provider = holders.find(hasKey) ?? holders[0];
	return provider ? getModel(provider, spec.full) : undefined;
}

/** The error for a spec the catalog lacks: it suggests the closest ids, or the providers. */
export function unknownModelError(spec: ModelSpec): CliError {
	const providers = getProviders();
	let suggestions: string[];
	if (spec.provider && (providers as string[]).includes(spec.provider)) {
		suggestions = closestMatches(spec.id, getModels(spec.provider).map((model) => model.id)).map((id) => `${spec.provider}/${id}`);
	} else if (spec.provider && !catalogIds().some((id) => id.toLowerCase().includes(spec.full.toLowerCase()))) {
		const nearProviders = closestMatches(spec.provider, providers);
		suggestions = nearProviders.length > 0 ? nearProviders.map((provider) => `${provider}/${spec.id}`) : [];
		if (suggestions.length === 0) {
			return new CliError(`unknown provider "${spec.provider}" in -m ${spec.full}; providers: ${providers.join(", ")} (or pass --base-url for any OpenAI-compatible server)`);
		}
	} else {
		// Compare with the ids alone: "claude-hiku" is far from "anthropic/claude-haiku-4-5" as a whole.
		suggestions = closestMatches(spec.full, catalogIds(), 3, (candidate) => candidate.slice(candidate.indexOf("/") + 1));
	}
	const hint = suggestions.length > 0 ? `; did you mean ${suggestions.join(", ")}?` : "; see pi-ai models";
	return new CliError(`unknown model ${spec.full}${hint} (a model outside the catalog needs --base-url)`);
}

/**
 * The model for `--base-url URL`: a catalog model pointed at `URL` when the spec names one (its
 * wire API kept), else an OpenAI Chat Completions model with the spec as its id, exactly as the
 * server lists it (`llama3.1:8b`, `meta-llama/Llama-3.1-8B-Instruct`), with no prices.
 */
export function modelAtBaseUrl(spec: ModelSpec, baseUrl: string, hasKey: (provider: string) => boolean): Model<Api> {
	let url: URL;
	try {
		url = new URL(baseUrl);
	} catch {
		throw new CliError(`--base-url ${JSON.stringify(baseUrl)} is not a URL; expected e.g. http://localhost:11434/v1`);
	}
	if (url.protocol !== "http:" && url.protocol !== "https:") throw new CliError(`--base-url ${baseUrl}: only http and https URLs are supported`);
	const root = baseUrl.replace(/\/+$/, "");
	const known = findCatalogModel(spec, hasKey);
	if (known) return { ...known, baseUrl: root };
	const model: Model<"openai-completions"> = {
		id: spec.full,
		name: spec.full,
		api: "openai-completions",
		provider: COMPATIBLE_PROVIDER,
		baseUrl: root,
		// A local server may or may not think; asking is harmless when it does not.
		reasoning: spec.thinking !== undefined && spec.thinking !== "off",
		input: ["text", "image"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 128_000,
		maxTokens: 8_192,
	};
	return model;
}
