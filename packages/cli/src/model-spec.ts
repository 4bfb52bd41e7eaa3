/**
 * `-m provider/model[:thinking]`: parsing the spec, and finding the model it names in the catalog
 * of `@pi/ai` (or describing a model outside it, for `--base-url` servers).
 */
import type { Api, Model } from "@pi/ai";
import { defineModel, getModel, getModels, getProviders } from "@pi/ai";
import type { ThinkingLevel } from "@pi/agent-core";
import { CliError } from "./cli-error.js";
import { closestMatches } from "./closest-matches.js";
import { type AddedModel, readConfig } from "./config.js";
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

/**
 * The error for a spec neither the catalog nor the added models have. Every suggestion is a model
 * that exists: the closest ids of the provider named, else of the whole catalog; an unknown
 * provider with no near model lists the providers; a last `:word` that is not a thinking level,
 * after a model that exists, lists the levels.
 */
export function unknownModelError(spec: ModelSpec, added: readonly string[] = Object.keys(readConfig().models)): CliError {
	const providers = getProviders();
	const colon = spec.full.lastIndexOf(":");
	if (colon > 0) {
		const before = parseModelSpec(spec.full.slice(0, colon));
		if (findCatalogModel(before, () => false) || added.includes(before.full)) {
			return new CliError(`"${spec.full.slice(colon + 1)}" in -m ${spec.full} is not a thinking level; levels: ${THINKING_LEVELS.join(", ")}`);
		}
	}
	let suggestions: string[];
	if (spec.provider && (providers as string[]).includes(spec.provider)) {
		suggestions = closestMatches(spec.id, getModels(spec.provider).map((model) => model.id)).map((id) => `${spec.provider}/${id}`);
	} else if (spec.provider && !catalogIds().some((id) => id.toLowerCase().includes(spec.full.toLowerCase()))) {
		// Only near providers that do have this id: "google/bar" is no help when google has no "bar".
		suggestions = closestMatches(spec.provider, providers)
			.map((provider) => `${provider}/${spec.id}`)
			.filter((candidate) => getModel(candidate.slice(0, candidate.indexOf("/")), spec.id) !== undefined);
		if (suggestions.length === 0) {
			return new CliError(`unknown provider "${spec.provider}" in -m ${spec.full}; providers: ${providers.join(", ")} (a model outside the catalog: pi-ai models add ID --base-url URL, or pass --base-url)`);
		}
	} else {
		// Compare with the ids alone: "claude-hiku" is far from "anthropic/claude-haiku-4-5" as a whole.
		suggestions = closestMatches(spec.full, [...added, ...catalogIds()], 3, (candidate) => (added.includes(candidate) ? candidate : candidate.slice(candidate.indexOf("/") + 1)));
	}
	const hint = suggestions.length > 0 ? `; did you mean ${suggestions.join(", ")}?` : "; see pi-ai models";
	return new CliError(`unknown model ${spec.full}${hint} (a model outside the catalog: pi-ai models add ID --base-url URL, or pass --base-url)`);
}

/**
 * The model the user added as `spec` (`-m ID`, or `-m openai-compatible/ID`), at `baseUrl` when
 * given (`--base-url` wins over the saved URL).
 */
export function findAddedModel(spec: ModelSpec, models: Readonly<Record<string, AddedModel>> = readConfig().models, baseUrl?: string): Model<Api> | undefined {
	const id = Object.hasOwn(models, spec.full) ? spec.full : spec.provider === COMPATIBLE_PROVIDER && Object.hasOwn(models, spec.id) ? spec.id : undefined;
	const added = id === undefined ? undefined : models[id];
	if (!added) return undefined;
	return compatibleModel(added.id, baseUrl ? checkBaseUrl(baseUrl) : added.baseUrl, spec.thinking, added.api, added.name);
}

/** A model outside the catalog, as the CLI describes one: provider `openai-compatible`, no prices, text and images. */
export function compatibleModel(id: string, baseUrl: string, thinking: ThinkingLevel | undefined, api: Api = "openai-completions", name?: string): Model<Api> {
	return defineModel({
		id,
		baseUrl,
		api,
		name,
		provider: COMPATIBLE_PROVIDER,
		// A local server may or may not think; asking is harmless when it does not.
		reasoning: thinking !== undefined && thinking !== "off",
		// Images are the server's to refuse: the CLI does not know what a local model reads.
		input: ["text", "image"],
	});
}

/** `baseUrl` without trailing slashes, or a usage error when it is not an http(s) URL. */
export function checkBaseUrl(baseUrl: string, flag = "--base-url"): string {
	let url: URL;
	try {
		url = new URL(baseUrl);
	} catch {
		throw new CliError(`${flag} ${JSON.stringify(baseUrl)} is not a URL; expected e.g. http://localhost:11434/v1`);
	}
	if (url.protocol !== "http:" && url.protocol !== "https:") throw new CliError(`${flag} ${baseUrl}: only http and https URLs are supported`);
	return baseUrl.replace(/\/+$/, "");
}

/**
 * The model for `--base-url URL`: a catalog model pointed at `URL` when the spec names one (its
 * wire API kept), else an OpenAI Chat Completions model with the spec as its id, exactly as the
 * server lists it (`llama3.1:8b`, `meta-llama/Llama-3.1-8B-Instruct`), with no prices.
 */
export function modelAtBaseUrl(spec: ModelSpec, baseUrl: string, hasKey: (provider: string) => boolean): Model<Api> {
	const root = checkBaseUrl(baseUrl);
	const known = findCatalogModel(spec, hasKey);
	if (known) return { ...known, baseUrl: root };
	return compatibleModel(spec.full, root, spec.thinking);
}
