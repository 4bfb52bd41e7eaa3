import type { Api, Model } from "@pi/ai";

/** The path each API's client appends its own route to, on the replay server. */
const basePath: Record<string, string> = {
	"openai-completions": "/v1",
	"openai-responses": "/v1",
	"anthropic-messages": "",
	"google-generative-ai": "/v1beta",
};

/** A model of `api` pointed at the replay server at `origin`; prices are zero (no cost check here). */
export function replayModel<TApi extends Api>(api: TApi, origin: string): Model<TApi> {
	return {
		id: `test-${api}`,
		name: `Test ${api}`,
		api,
		provider: api === "anthropic-messages" ? "anthropic" : api === "google-generative-ai" ? "google" : "openai",
		baseUrl: `${origin}${basePath[api]}`,
		reasoning: false,
		input: ["text"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 128_000,
		maxTokens: 4096,
	} as Model<TApi>;
}

/** The four APIs, in the order the runtime tests stream them. */
export const apis = ["openai-completions", "openai-responses", "anthropic-messages", "google-generative-ai"] as const;
