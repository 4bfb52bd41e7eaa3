import { describe, expect, it } from "vitest";
import { closestMatches, editDistance } from "../src/closest-matches.js";
import { modelAtBaseUrl, parseModelSpec } from "../src/model-spec.js";
import { configDir, dataDir } from "../src/paths.js";
import { formatPrice, formatTokens } from "../src/commands/models-command.js";

describe("parseModelSpec", () => {
	it("splits provider, id and a thinking level", () => {
		expect(parseModelSpec("anthropic/claude-haiku-4-5:high")).toEqual({ provider: "anthropic", id: "claude-haiku-4-5", full: "anthropic/claude-haiku-4-5", thinking: "high" });
		expect(parseModelSpec("gpt-4o")).toEqual({ id: "gpt-4o", full: "gpt-4o", thinking: undefined });
		expect(parseModelSpec("openrouter/meta-llama/llama-3:off").thinking).toBe("off");
	});

	it("keeps a suffix that is not a thinking level as part of the id", () => {
		expect(parseModelSpec("llama3.1:8b")).toMatchObject({ id: "llama3.1:8b", thinking: undefined });
		expect(parseModelSpec("ollama/qwen3:30b-a3b:low")).toMatchObject({ provider: "ollama", id: "qwen3:30b-a3b", thinking: "low" });
	});

	it("refuses a spec that names no model", () => {
		expect(() => parseModelSpec(":high")).toThrow("names no model");
		expect(() => parseModelSpec("  ")).toThrow("names no model");
	});
});

describe("modelAtBaseUrl", () => {
	const noKeys = () => false;
	it("points a catalog model at the URL and keeps its wire API and prices", () => {
		const model = modelAtBaseUrl(parseModelSpec("anthropic/claude-haiku-4-5"), "http://127.0.0.1:9/", noKeys);
		expect(model).toMatchObject({ api: "anthropic-messages", provider: "anthropic", baseUrl: "http://127.0.0.1:9", cost: { input: 1, output: 5 } });
	});

	it("describes any other id as an OpenAI-compatible model without prices", () => {
		const model = modelAtBaseUrl(parseModelSpec("meta-llama/Llama-3.1-8B-Instruct"), "http://127.0.0.1:8000/v1", noKeys);
		expect(model).toMatchObject({ id: "meta-llama/Llama-3.1-8B-Instruct", api: "openai-completions", provider: "openai-compatible", cost: { input: 0, output: 0 } });
	});

	it("refuses what is not an http(s) URL", () => {
		expect(() => modelAtBaseUrl(parseModelSpec("m"), "localhost:11434", noKeys)).toThrow("only http and https");
		expect(() => modelAtBaseUrl(parseModelSpec("m"), "not a url", noKeys)).toThrow("is not a URL");
	});
});

describe("closestMatches", () => {
	const ids = ["claude-haiku-4-5", "claude-haiku-4-5-20251001", "claude-sonnet-4", "gpt-4o", "gpt-4o-mini"];
	it("puts ids containing the typed text first, then near misses, and nothing far", () => {
		expect(closestMatches("haiku", ids)).toEqual(["claude-haiku-4-5", "claude-haiku-4-5-20251001"]);
		expect(closestMatches("gpt4o", ids)).toEqual(["gpt-4o", "gpt-4o-mini"]);
		expect(closestMatches("claude-hiku", ids)[0]).toBe("claude-haiku-4-5");
		expect(closestMatches("mistral-large", ids)).toEqual([]);
	});

	it("measures edits", () => {
		expect(editDistance("kitten", "sitting")).toBe(3);
		expect(editDistance("", "abc")).toBe(3);
	});
});

describe("folders", () => {
	it("follow XDG when set (absolute only), else each OS's convention", () => {
		expect(configDir({ env: { XDG_CONFIG_HOME: "/x/c" }, platform: "darwin", home: "/h" })).toBe("/x/c/pi-ai");
		expect(configDir({ env: { XDG_CONFIG_HOME: "relative" }, platform: "linux", home: "/h" })).toBe("/h/.config/pi-ai");
		expect(dataDir({ env: {}, platform: "linux", home: "/h" })).toBe("/h/.local/share/pi-ai");
		expect(dataDir({ env: {}, platform: "darwin", home: "/h" })).toBe("/h/Library/Application Support/pi-ai");
	});
});

describe("table figures", () => {
	it("abbreviates token counts and prints unknown prices as -", () => {
		expect(formatTokens(200_000)).toBe("200k");
		expect(formatTokens(1_048_576)).toBe("1.05M");
		expect(formatTokens(512)).toBe("512");
		expect(formatPrice(0)).toBe("-");
		expect(formatPrice(0.075)).toBe("0.075");
	});
});
