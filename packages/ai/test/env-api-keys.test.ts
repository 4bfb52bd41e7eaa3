import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getEnvApiKey, getEnvApiKeyNames } from "../src/env-api-keys.js";

const ALL_VARIABLES = [
	"OPENAI_API_KEY",
	"ANTHROPIC_API_KEY",
	"ANTHROPIC_OAUTH_TOKEN",
	"GEMINI_API_KEY",
	"GOOGLE_API_KEY",
	"GROQ_API_KEY",
	"XAI_API_KEY",
	"DEEPSEEK_API_KEY",
	"OPENROUTER_API_KEY",
	"MISTRAL_API_KEY",
	"CEREBRAS_API_KEY",
	"TOGETHER_API_KEY",
	"AZURE_OPENAI_API_KEY",
	"OLLAMA_API_KEY",
];

// Start every test from a clean environment, whatever the machine running the tests has set.
beforeEach(() => {
	for (const name of ALL_VARIABLES) vi.stubEnv(name, undefined);
});
afterEach(() => {
	vi.unstubAllEnvs();
});

describe("getEnvApiKey", () => {
	it.each([
		["openai", "OPENAI_API_KEY"],
		["anthropic", "ANTHROPIC_API_KEY"],
		["google", "GEMINI_API_KEY"],
		["google", "GOOGLE_API_KEY"],
		["groq", "GROQ_API_KEY"],
		["xai", "XAI_API_KEY"],
		["deepseek", "DEEPSEEK_API_KEY"],
		["openrouter", "OPENROUTER_API_KEY"],
		["mistral", "MISTRAL_API_KEY"],
		["cerebras", "CEREBRAS_API_KEY"],
		["togetherai", "TOGETHER_API_KEY"],
		["azure", "AZURE_OPENAI_API_KEY"],
	])("reads %s's key from %s", (provider, variable) => {
		expect(getEnvApiKey(provider)).toBeUndefined();
		vi.stubEnv(variable, `key-for-${variable}`);
		expect(getEnvApiKey(provider)).toBe(`key-for-${variable}`);
	});

	it("does not read another provider's variable", () => {
		vi.stubEnv("OPENAI_API_KEY", "sk-openai");
		expect(getEnvApiKey("azure")).toBeUndefined();
		expect(getEnvApiKey("openrouter")).toBeUndefined();
	});

	it("prefers ANTHROPIC_OAUTH_TOKEN over ANTHROPIC_API_KEY", () => {
		vi.stubEnv("ANTHROPIC_API_KEY", "sk-ant-api");
		expect(getEnvApiKey("anthropic")).toBe("sk-ant-api");
		vi.stubEnv("ANTHROPIC_OAUTH_TOKEN", "sk-ant-oat");
		expect(getEnvApiKey("anthropic")).toBe("sk-ant-oat");
	});

	it("prefers GEMINI_API_KEY over GOOGLE_API_KEY", () => {
		vi.stubEnv("GOOGLE_API_KEY", "google-key");
		vi.stubEnv("GEMINI_API_KEY", "gemini-key");
		expect(getEnvApiKey("google")).toBe("gemini-key");
	});

	it("treats an empty variable as unset and falls through to the next one", () => {
		vi.stubEnv("OPENAI_API_KEY", "");
		expect(getEnvApiKey("openai")).toBeUndefined();
		vi.stubEnv("ANTHROPIC_OAUTH_TOKEN", "");
		vi.stubEnv("ANTHROPIC_API_KEY", "sk-ant-api");
		expect(getEnvApiKey("anthropic")).toBe("sk-ant-api");
	});

	it("needs no key for ollama and knows none for unknown providers", () => {
		vi.stubEnv("OLLAMA_API_KEY", "ignored");
		expect(getEnvApiKey("ollama")).toBeUndefined();
		expect(getEnvApiKey("my-proxy")).toBeUndefined();
		expect(getEnvApiKey("constructor")).toBeUndefined();
		expect(getEnvApiKey("__proto__")).toBeUndefined();
	});

	it("reads the environment at each call, not at import", () => {
		expect(getEnvApiKey("groq")).toBeUndefined();
		vi.stubEnv("GROQ_API_KEY", "gsk-first");
		expect(getEnvApiKey("groq")).toBe("gsk-first");
		vi.stubEnv("GROQ_API_KEY", "gsk-second");
		expect(getEnvApiKey("groq")).toBe("gsk-second");
	});

	it("returns undefined where there is no process (browsers)", () => {
		vi.stubEnv("OPENAI_API_KEY", "sk-openai");
		const descriptor = Object.getOwnPropertyDescriptor(globalThis, "process");
		expect(descriptor?.configurable).toBe(true);
		// Synchronous on purpose: nothing else runs while the global is gone.
		Object.defineProperty(globalThis, "process", { value: undefined, configurable: true, writable: true });
		let key: string | undefined;
		let threw: unknown;
		try {
			key = getEnvApiKey("openai");
		} catch (error) {
			threw = error;
		} finally {
			Object.defineProperty(globalThis, "process", descriptor!);
		}
		expect(threw).toBeUndefined();
		expect(key).toBeUndefined();
		expect(getEnvApiKey("openai")).toBe("sk-openai");
	});
});

describe("getEnvApiKeyNames", () => {
	it("lists the variables in order of precedence", () => {
		expect(getEnvApiKeyNames("anthropic")).toEqual(["ANTHROPIC_OAUTH_TOKEN", "ANTHROPIC_API_KEY"]);
		expect(getEnvApiKeyNames("google")).toEqual(["GEMINI_API_KEY", "GOOGLE_API_KEY"]);
		expect(getEnvApiKeyNames("togetherai")).toEqual(["TOGETHER_API_KEY"]);
	});

	it("is undefined for providers without a key", () => {
		expect(getEnvApiKeyNames("ollama")).toBeUndefined();
		expect(getEnvApiKeyNames("toString")).toBeUndefined();
	});
});
