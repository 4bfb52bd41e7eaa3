/**
 * `defineModel`: one call for a model the catalog lacks (a local server, a private deployment,
 * a gateway), instead of an 11-field `Model` literal.
 */
import type { Api, Model } from "./types.js";

// The defaults: the API every OpenAI-compatible server speaks, and the sizes of today's common
// open models (a server refuses a larger request with a clear error; set the real values to use more).
const DEFAULT_API = "openai-completions";
const DEFAULT_PROVIDER = "openai-compatible";
const DEFAULT_CONTEXT_WINDOW = 128_000;
const DEFAULT_MAX_TOKENS = 8_192;

/**
 * What {@link defineModel} takes: `id` and `baseUrl`, and any other field of `Model` to override
 * its default. `cost` may name only some prices (the rest are 0).
 */
export type ModelDefinition<TApi extends Api = typeof DEFAULT_API> = Partial<Omit<Model<TApi>, "id" | "baseUrl" | "api" | "cost">> & {
	/** The id the server knows, sent as `model` (e.g. `llama3.1:8b`). */
	id: string;
	/** The API root, e.g. `http://localhost:11434/v1`. */
	baseUrl: string;
	/** The wire API; default `openai-completions`. */
	api?: TApi;
	/** US dollars per million tokens; each missing price is 0. */
	cost?: Partial<Model<TApi>["cost"]>;
};

/**
 * A complete `Model` from an id and a base URL, with documented defaults for everything else:
 *
 * | field | default |
 * | --- | --- |
 * | `name` | `id` |
 * | `api` | `"openai-completions"` |
 * | `provider` | `"openai-compatible"` |
 * | `reasoning` | `false` |
 * | `input` | `["text"]` |
 * | `cost` | all prices `0` |
 * | `contextWindow` | `128_000` |
 * | `maxTokens` | `8_192` |
 *
 * Every field can be overridden; `headers`, `compat`, `thinkingLevelMap` and `batchCost` are set
 * only when given. The result is a new object: the definition is not kept or changed. Throws a
 * `TypeError` naming the field when `id` is empty or `baseUrl` is not an http(s) URL.
 *
 * @example
 * ```ts
 * import { complete, defineModel } from "@pi/ai";
 *
 * const llama = defineModel({ id: "llama3.1:8b", baseUrl: "http://localhost:11434/v1" });
 * const reply = await complete(llama, { messages: [{ role: "user", content: "Hi", timestamp: Date.now() }] });
 *
 * const claude = defineModel({ id: "claude-haiku-4-5", baseUrl: "https://gateway.example", api: "anthropic-messages", provider: "anthropic" });
 * ```
 */
export function defineModel<TApi extends Api = typeof DEFAULT_API>(definition: ModelDefinition<TApi>): Model<TApi> {
	const { id, baseUrl, api, provider, name, reasoning, input, cost, contextWindow, maxTokens, ...optional } = definition;
	if (typeof id !== "string" || id.trim() === "") throw new TypeError(`defineModel: id must be a non-empty string, got ${JSON.stringify(id)}`);
	if (!isHttpUrl(baseUrl)) throw new TypeError(`defineModel: baseUrl must be an http(s) URL such as http://localhost:11434/v1, got ${JSON.stringify(baseUrl)}`);
	return {
		...optional,
		id,
		name: name ?? id,
		api: api ?? (DEFAULT_API as TApi),
		provider: provider ?? DEFAULT_PROVIDER,
		baseUrl,
		reasoning: reasoning ?? false,
		input: input ? [...input] : ["text"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, ...cost },
		contextWindow: contextWindow ?? DEFAULT_CONTEXT_WINDOW,
		maxTokens: maxTokens ?? DEFAULT_MAX_TOKENS,
	};
}

function isHttpUrl(value: unknown): boolean {
	if (typeof value !== "string") return false;
	try {
		const { protocol } = new URL(value);
		return protocol === "http:" || protocol === "https:";
	} catch {
		return false;
	}
}
