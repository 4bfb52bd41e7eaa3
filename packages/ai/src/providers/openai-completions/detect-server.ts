import type { Api, Model } from "../../types.js";

/**
 * The Chat Completions servers whose quirks this package knows. `generic` is any other
 * OpenAI-compatible server, treated conservatively.
 */
export type CompletionsServer =
	| "openai"
	| "azure"
	| "groq"
	| "xai"
	| "deepseek"
	| "mistral"
	| "openrouter"
	| "cerebras"
	| "together"
	| "ollama"
	| "lmstudio"
	| "llamacpp"
	| "vllm"
	| "generic";

/** Hosted APIs, recognised by host name (exact, or a suffix when it starts with a dot). */
const HOSTS: readonly (readonly [string, CompletionsServer])[] = [
	["api.openai.com", "openai"],
	[".openai.azure.com", "azure"],
	[".cognitiveservices.azure.com", "azure"],
	[".services.ai.azure.com", "azure"],
	["api.groq.com", "groq"],
	["api.x.ai", "xai"],
	["api.deepseek.com", "deepseek"],
	["api.mistral.ai", "mistral"],
	["openrouter.ai", "openrouter"],
	["api.cerebras.ai", "cerebras"],
	["api.together.xyz", "together"],
	["api.together.ai", "together"],
];

/** Default ports of local servers; only trusted on a local host, where they are conventional. */
const LOCAL_PORTS: Readonly<Record<string, CompletionsServer>> = {
	"11434": "ollama",
	"1234": "lmstudio",
	"8080": "llamacpp",
	"8000": "vllm",
};

/** Provider names, as used in the catalog and by users, for each server. */
const PROVIDERS: Readonly<Record<string, CompletionsServer>> = {
	openai: "openai",
	azure: "azure",
	"azure-openai": "azure",
	groq: "groq",
	xai: "xai",
	deepseek: "deepseek",
	mistral: "mistral",
	openrouter: "openrouter",
	cerebras: "cerebras",
	togetherai: "together",
	together: "together",
	ollama: "ollama",
	lmstudio: "lmstudio",
	"lm-studio": "lmstudio",
	"llama.cpp": "llamacpp",
	llamacpp: "llamacpp",
	"llama-cpp": "llamacpp",
	vllm: "vllm",
};

/**
 * Which server `model` talks to. The `baseUrl` decides when its host is a known API (the URL is
 * what actually answers, whatever the provider is called), then the provider name, then the
 * conventional port of a local server (Ollama 11434, LM Studio 1234, llama.cpp 8080, vLLM 8000);
 * anything else is `generic`.
 *
 * @example
 * detectServer({ ...model, baseUrl: "https://api.groq.com/openai/v1" }) // "groq"
 * detectServer({ ...model, provider: "my-box", baseUrl: "http://localhost:11434/v1" }) // "ollama"
 */
export function detectServer(model: Pick<Model<Api>, "baseUrl" | "provider">): CompletionsServer {
	const url = parseUrl(model.baseUrl);
	const host = url?.hostname.toLowerCase() ?? "";
	for (const [pattern, server] of HOSTS) {
		if (pattern.startsWith(".") ? host.endsWith(pattern) : host === pattern || host.endsWith(`.${pattern}`)) return server;
	}
	const byProvider = PROVIDERS[model.provider.toLowerCase()];
	if (byProvider) return byProvider;
	if (url && isLocalHost(host)) {
		const byPort = LOCAL_PORTS[url.port];
		if (byPort) return byPort;
	}
	return "generic";
}

/** Hosted servers that always need an API key (local and generic ones may need none). */
export function isHostedServer(server: CompletionsServer): boolean {
	return !["ollama", "lmstudio", "llamacpp", "vllm", "generic"].includes(server);
}

/**
 * Whether `baseUrl` points at this machine or a private network, where servers usually run
 * without an API key.
 */
export function isLocalBaseUrl(baseUrl: string): boolean {
	const host = parseUrl(baseUrl)?.hostname.toLowerCase();
	return host !== undefined && isLocalHost(host);
}

function isLocalHost(host: string): boolean {
	const bare = host.replace(/^\[|\]$/g, "");
	return (
		bare === "localhost" ||
		bare.endsWith(".localhost") ||
		bare.endsWith(".local") ||
		bare === "host.docker.internal" ||
		bare === "::1" ||
		bare === "0.0.0.0" ||
		/^127\./.test(bare) ||
		/^10\./.test(bare) ||
		/^192\.168\./.test(bare) ||
		/^172\.(1[6-9]|2\d|3[01])\./.test(bare)
	);
}

function parseUrl(text: string): URL | undefined {
	try {
		return new URL(text);
	} catch {
		return undefined;
	}
}
