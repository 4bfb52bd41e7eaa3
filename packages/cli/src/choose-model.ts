/**
 * Which model a prompt goes to, and with which key: `-m` (plus `--base-url`), else the model of
 * the conversation being continued, else the configured default (`PI_MODEL`, `PI_AI_MODEL`,
 * config.json), else the first of a few cheap models whose provider has a key. `--base-url`
 * falls back to `PI_BASE_URL`.
 */
import type { Api, Model } from "@pi/ai";
import { getEnvApiKeyNames, getModel } from "@pi/ai";
import type { ThinkingLevel } from "@pi/agent-core";
import { CliError } from "./cli-error.js";
import { ADDED_MODEL_APIS, type AddedModelApi, type CliConfig, configuredModel, readConfig } from "./config.js";
import { COMPATIBLE_PROVIDER, keyVariableNames, readStoredKeys, resolveApiKey } from "./key-store.js";
import { checkBaseUrl, compatibleModel, findAddedModel, findCatalogModel, modelAtBaseUrl, parseModelSpec, unknownModelError } from "./model-spec.js";
import { escapeControlCharacters } from "./terminal/escape-control-characters.js";

/** Tried in order when nothing names a model: the first whose provider has a key wins. */
export const FALLBACK_MODELS: readonly [string, string][] = [
	["anthropic", "claude-haiku-4-5"],
	["openai", "gpt-4o-mini"],
	["google", "gemini-2.5-flash"],
];

/**
 * Sent as the key to a loopback server when there is none, for the APIs whose provider refuses to
 * run without one (Anthropic, Gemini, Responses): a local server decides for itself, and a real
 * key is never sent in its place.
 */
export const LOOPBACK_PLACEHOLDER_KEY = "pi-ai-local-no-key";

/** The model, thinking level and key a prompt runs with. */
export interface ChosenModel {
	model: Model<Api>;
	/** `provider/id`, for the usage line and the spinner. */
	label: string;
	/** From the spec's `:level`; `undefined` leaves the conversation's (or the default, off). */
	thinking?: ThinkingLevel;
	apiKey: string | undefined;
}

/** The model a continued conversation last used, as its session records it. */
export interface ResumedModel {
	/** From the last `model_change`. */
	provider: string;
	modelId: string;
	/** The CLI's `pi-ai.model` record of it (untrusted: it comes from a file). */
	recorded: Model<Api> | undefined;
}

/** What the choice may draw on besides the flags. */
export interface ModelChoiceInput {
	/** `-m` */
	spec?: string;
	/** `--base-url` (or `PI_BASE_URL`). */
	baseUrl?: string;
	/** The model of a continued conversation. */
	resumed?: ResumedModel;
}

/**
 * Picks the model. Throws a `CliError` (exit 2, before any request) for an unknown model (with
 * the closest ids), for a conversation whose model cannot be resumed safely (naming the flags to
 * pass), and for a missing or malformed key (naming the variable to set).
 */
export function chooseModel(input: ModelChoiceInput): ChosenModel {
	const stored = readStoredKeys();
	const config = readConfig();
	const hasKey = (provider: string) => resolveApiKey(provider, stored).source !== undefined;
	let model: Model<Api>;
	let thinking: ThinkingLevel | undefined;
	const specText = input.spec ?? (input.resumed ? undefined : configuredModel()?.spec);
	if (specText !== undefined) {
		const spec = parseModelSpec(specText);
		thinking = spec.thinking;
		model =
			findAddedModel(spec, config.models, input.baseUrl) ??
			(input.baseUrl ? modelAtBaseUrl(spec, input.baseUrl, hasKey) : findCatalogModel(spec, hasKey)) ??
			throwError(unknownModelError(spec, Object.keys(config.models)));
	} else if (input.resumed) {
		model = resumedModel(input.resumed, input.baseUrl, config);
	} else {
		if (input.baseUrl) throw new CliError("--base-url (or PI_BASE_URL) needs -m (or PI_MODEL), the model id the server knows (e.g. -m llama3.1)");
		const fallback = FALLBACK_MODELS.map(([provider, id]) => getModel(provider, id)).find((candidate) => candidate && hasKey(candidate.provider));
		if (!fallback) {
			// Name the API-key variable of each (ANTHROPIC_API_KEY rather than the OAuth token's).
			const variables = FALLBACK_MODELS.map(([provider]) => getEnvApiKeyNames(provider)?.find((name) => name.endsWith("_API_KEY"))).filter(Boolean);
			throw new CliError(`no API key is set: set ${variables.join(", ")} (or run pi-ai keys set PROVIDER), or pick a model with -m`);
		}
		model = fallback;
	}
	return { model, label: `${model.provider}/${model.id}`, thinking, apiKey: chooseKey(model, stored) };
}

/**
 * The key for `model`: the provider's (environment, then keys file). Without one, a loopback server
 * needs none; anywhere else a provider that requires one is a usage error naming its variable.
 */
export function chooseKey(model: Model<Api>, stored: Record<string, string> = readStoredKeys()): string | undefined {
	const { key, source } = resolveApiKey(model.provider, stored);
	if (key) {
		checkHeaderSafe(key, model.provider, source === "env" ? (keyVariableNames(model.provider).find((name) => process.env[name]) ?? "the environment") : "the keys file");
		return key;
	}
	const required = keyRequired(model);
	if (isLoopbackUrl(model.baseUrl)) return required && model.api !== "openai-completions" ? LOOPBACK_PLACEHOLDER_KEY : undefined;
	if (required) {
		const variables = keyVariableNames(model.provider);
		throw new CliError(`no API key for ${model.provider}: set ${variables.join(" or ") || "PI_API_KEY"}, or run pi-ai keys set ${model.provider}`);
	}
	return undefined;
}

/** Whether `@pi/ai` refuses to call `model` without a key: Anthropic and Gemini always, others when the provider has a key variable. */
function keyRequired(model: Model<Api>): boolean {
	if (model.api === "anthropic-messages" || model.api === "google-generative-ai") return true;
	return model.provider !== COMPATIBLE_PROVIDER && (getEnvApiKeyNames(model.provider)?.length ?? 0) > 0;
}

/** `localhost`, `127.*`, `::1`: a server on this machine. */
export function isLoopbackUrl(baseUrl: string): boolean {
	try {
		const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, "");
		return host === "localhost" || host.endsWith(".localhost") || /^127\.\d+\.\d+\.\d+$/.test(host) || host === "::1";
	} catch {
		return false;
	}
}

/** fetch refuses a header value with characters outside Latin-1, and a newline ends a header: say so before any request. */
function checkHeaderSafe(key: string, provider: string, from: string): void {
	const bad = [...key].findIndex((char) => !/^[\x20-\x7e\t]$/.test(char));
	if (bad < 0) return;
	const code = key.codePointAt([...key].slice(0, bad).join("").length) ?? 0;
	throw new CliError(
		`the API key for ${provider} (from ${from}) has a character that cannot go in an HTTP header at position ${bad + 1} (U+${code.toString(16).toUpperCase().padStart(4, "0")}); copy the key again (pi-ai keys set ${provider})`,
	);
}

/**
 * The model to continue a conversation with. A base URL recorded in the session is reused only
 * when it is the catalog's, or the user's own `models add` entry's, or `--base-url` names where
 * to go: a session file must never send the user's key somewhere they did not choose.
 */
function resumedModel(resumed: ResumedModel, baseUrl: string | undefined, config: CliConfig): Model<Api> {
	const recorded = wellFormed(resumed.recorded, resumed);
	const catalog = getModel(resumed.provider, resumed.modelId);
	const label = escapeControlCharacters(`${resumed.provider}/${resumed.modelId}`);
	if (baseUrl) {
		const root = checkBaseUrl(baseUrl);
		if (catalog) return { ...catalog, baseUrl: root };
		// Rebuilt from its id and API only: nothing else of a file's record (headers, compat) is used.
		if (recorded) return compatibleModel(recorded.id, root, undefined, knownApi(recorded.api), typeof recorded.name === "string" ? recorded.name : undefined);
		if (resumed.provider === COMPATIBLE_PROVIDER) return compatibleModel(resumed.modelId, root, undefined);
		throw new CliError(`the conversation's model ${label} is neither in the catalog nor recorded in the session: pass -m with the model id as well`);
	}
	if (!recorded || (catalog && recorded.baseUrl === catalog.baseUrl)) {
		if (catalog) return catalog;
		throw new CliError(`the conversation's model ${label} is not in the catalog, and the session does not record where it ran: pass -m ${escapeControlCharacters(resumed.modelId)} --base-url URL`);
	}
	const added = recorded.provider === COMPATIBLE_PROVIDER ? findAddedModel(parseModelSpec(recorded.id), config.models) : undefined;
	if (added) return added;
	const url = escapeControlCharacters(recorded.baseUrl);
	if (catalog) {
		throw new CliError(`the conversation used ${label} at ${url}, not at the provider's own ${catalog.baseUrl}: pass --base-url ${url} to continue there, or -m ${label} for the provider's own API`);
	}
	const api = recorded.api === "openai-completions" ? "" : ` --api ${escapeControlCharacters(recorded.api)}`;
	throw new CliError(
		`the conversation's model ${label} is not in the catalog (it ran at ${url}): pass --base-url ${url} to continue there, or save it once with pi-ai models add ${escapeControlCharacters(recorded.id)} --base-url ${url}${api}`,
	);
}

/** The recorded model when it has the shape of one and is the conversation's model; else `undefined`. */
function wellFormed(model: Model<Api> | undefined, resumed: ResumedModel): Model<Api> | undefined {
	if (!model || typeof model !== "object") return undefined;
	const { id, provider, api, baseUrl } = model as Partial<Model<Api>>;
	if (typeof id !== "string" || typeof provider !== "string" || typeof api !== "string" || typeof baseUrl !== "string") return undefined;
	if (id !== resumed.modelId || provider !== resumed.provider) return undefined;
	if (!/^https?:\/\//i.test(baseUrl)) return undefined;
	return model;
}

function knownApi(api: string): AddedModelApi {
	return (ADDED_MODEL_APIS as readonly string[]).includes(api) ? (api as AddedModelApi) : "openai-completions";
}

function throwError(error: Error): never {
	throw error;
}
