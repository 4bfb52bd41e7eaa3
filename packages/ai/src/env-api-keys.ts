/**
 * API keys from environment variables, read when asked (never cached at import), so that a key
 * set or changed after startup is seen, and so that browsers, which have no `process`, get
 * `undefined` instead of an exception.
 */
import type { Provider } from "./types.js";

/**
 * The variables that can hold each provider's key, in order of precedence. The first one that is
 * set to a non-empty value wins.
 *
 * - anthropic: an OAuth token (`ANTHROPIC_OAUTH_TOKEN`, e.g. from a Claude subscription) wins over
 *   an API key, so that a user who set one up is not billed per token by accident.
 * - google: `GEMINI_API_KEY` is what Google AI Studio names it; `GOOGLE_API_KEY` is the older name
 *   that Google's own SDKs still read.
 * - ollama is absent: a local server needs no key.
 */
const ENV_VARIABLES: Readonly<Record<string, readonly string[]>> = {
	anthropic: ["ANTHROPIC_OAUTH_TOKEN", "ANTHROPIC_API_KEY"],
	azure: ["AZURE_OPENAI_API_KEY"],
	cerebras: ["CEREBRAS_API_KEY"],
	deepseek: ["DEEPSEEK_API_KEY"],
	google: ["GEMINI_API_KEY", "GOOGLE_API_KEY"],
	groq: ["GROQ_API_KEY"],
	mistral: ["MISTRAL_API_KEY"],
	openai: ["OPENAI_API_KEY"],
	openrouter: ["OPENROUTER_API_KEY"],
	togetherai: ["TOGETHER_API_KEY"],
	xai: ["XAI_API_KEY"],
};

function readVariable(name: string): string | undefined {
	// Browsers and some edge runtimes have no `process`; Deno and Bun have one.
	if (typeof process === "undefined" || typeof process.env !== "object" || process.env === null) return undefined;
	const value = process.env[name];
	// An exported but empty variable (`export OPENAI_API_KEY=`) means "not set", not "empty key".
	return value === undefined || value === "" ? undefined : value;
}

/**
 * The names of the environment variables that may hold `provider`'s key, in order of precedence,
 * or `undefined` for a provider that has none (e.g. `ollama`, or an unknown name).
 * Useful for error messages ("set OPENAI_API_KEY").
 *
 * @example
 * getEnvApiKeyNames("google") // ["GEMINI_API_KEY", "GOOGLE_API_KEY"]
 */
export function getEnvApiKeyNames(provider: Provider): readonly string[] | undefined {
	return Object.hasOwn(ENV_VARIABLES, provider) ? ENV_VARIABLES[provider] : undefined;
}

/**
 * The API key for `provider` from the environment, or `undefined` when none is set, when the
 * provider needs none (`ollama`), when the provider is unknown, or when there is no `process`
 * (browsers). `process.env` is read at each call.
 *
 * Variables: openai `OPENAI_API_KEY`; anthropic `ANTHROPIC_OAUTH_TOKEN`, then `ANTHROPIC_API_KEY`;
 * google `GEMINI_API_KEY`, then `GOOGLE_API_KEY`; groq `GROQ_API_KEY`; xai `XAI_API_KEY`;
 * deepseek `DEEPSEEK_API_KEY`; openrouter `OPENROUTER_API_KEY`; mistral `MISTRAL_API_KEY`;
 * cerebras `CEREBRAS_API_KEY`; togetherai `TOGETHER_API_KEY`; azure `AZURE_OPENAI_API_KEY`.
 * An empty value counts as unset.
 *
 * @example
 * const apiKey = options.apiKey ?? getEnvApiKey(model.provider);
 */
export function getEnvApiKey(provider: Provider): string | undefined {
	const names = getEnvApiKeyNames(provider);
	if (!names) return undefined;
	for (const name of names) {
		const value = readVariable(name);
		if (value !== undefined) return value;
	}
	return undefined;
}

/**
 * The environment variables that are set (non-empty) for `provider`, in lookup order, or
 * `undefined` when none is set or the provider has no known variables. Reports only API key
 * variables, never their values. Same name and result shape as `@mariozechner/pi-ai`.
 *
 * @example
 * // with GEMINI_API_KEY set
 * findEnvKeys("google") // ["GEMINI_API_KEY"]
 */
export function findEnvKeys(provider: Provider): string[] | undefined {
	const names = getEnvApiKeyNames(provider);
	if (!names) return undefined;
	const found = names.filter((name) => readVariable(name) !== undefined);
	return found.length > 0 ? found : undefined;
}
