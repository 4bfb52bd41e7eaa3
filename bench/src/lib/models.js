/**
 * The model and context both libraries get for a wire API: one plain object, identical for both,
 * with `baseUrl` pointing at the local replay server. Each library forms its request URL from
 * `baseUrl` its own way (the reference passes it to the vendor SDK; for Gemini as
 * `httpOptions.baseUrl` with an empty `apiVersion`), and the replay server answers any path.
 */

/** @typedef {import("./sse-bodies.js").WireApi} WireApi */

/** What each API's `baseUrl` looks like in real configurations: the vendor SDKs add the rest. */
const BASE_PATH = {
	"openai-completions": "/v1",
	"openai-responses": "/v1",
	"anthropic-messages": "",
	"google-generative-ai": "/v1beta",
};

const PROVIDER = {
	"openai-completions": "openai",
	"openai-responses": "openai",
	"anthropic-messages": "anthropic",
	"google-generative-ai": "google",
};

/**
 * @param {WireApi | string} api
 * @param {string} serverUrl e.g. http://127.0.0.1:4567
 */
export function benchModel(api, serverUrl) {
	return {
		id: "bench-model",
		name: "Bench model",
		api,
		provider: PROVIDER[/** @type {WireApi} */ (api)] ?? "bench",
		baseUrl: `${serverUrl}${BASE_PATH[/** @type {WireApi} */ (api)] ?? ""}`,
		reasoning: true,
		input: ["text"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 200_000,
		maxTokens: 8192,
	};
}

/** A tool like the ones the captures call, as plain JSON Schema (no typebox needed at run time). */
export const BENCH_TOOLS = [
	{
		name: "secret_retrieval_tool",
		description: "Retrieves a secret for a password.",
		parameters: { type: "object", properties: { password: { type: "string" } }, required: ["password"] },
	},
];

/** The same short conversation for every request. */
export function benchContext() {
	return {
		systemPrompt: "You are a helpful assistant.",
		messages: [{ role: "user", content: "Hello, please help.", timestamp: 1_700_000_000_000 }],
		tools: BENCH_TOOLS,
	};
}

/** Options passed to both libraries' `stream()`: a dummy key, nothing else. */
export const STREAM_OPTIONS = { apiKey: "bench-key-not-secret" };
