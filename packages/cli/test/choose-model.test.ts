import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chooseModel } from "../src/choose-model.js";

// chooseModel reads process.env (keys, PI_AI_MODEL) and the config folder: give it a private one.
const saved = { ...process.env };
let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "pi-cli-choose-"));
	for (const name of Object.keys(process.env)) if (/_API_KEY$|_OAUTH_TOKEN$|^PI_/.test(name)) delete process.env[name];
	process.env.XDG_CONFIG_HOME = dir;
});
afterEach(() => {
	process.env = { ...saved };
	rmSync(dir, { recursive: true, force: true });
});

describe("chooseModel without -m or a default", () => {
	it("picks the first fallback model whose provider has a key", () => {
		process.env.OPENAI_API_KEY = "k";
		expect(chooseModel({}).label).toBe("openai/gpt-4o-mini");
		process.env.ANTHROPIC_API_KEY = "k";
		expect(chooseModel({}).label).toBe("anthropic/claude-haiku-4-5");
	});

	it("uses a continued conversation's model, pointed at --base-url when given", () => {
		process.env.GEMINI_API_KEY = "k";
		const resumed = chooseModel({ spec: "google/gemini-2.5-flash" }).model;
		process.env.ANTHROPIC_API_KEY = "k";
		const chosen = chooseModel({ resumed: { provider: "google", modelId: "gemini-2.5-flash", recorded: resumed }, baseUrl: "http://127.0.0.1:9/v1beta/" });
		expect(chosen.label).toBe("google/gemini-2.5-flash");
		expect(chosen.model.baseUrl).toBe("http://127.0.0.1:9/v1beta");
	});
});

describe("chooseModel with -m", () => {
	it("finds a bare id in the catalog and takes the thinking level from the suffix", () => {
		process.env.ANTHROPIC_API_KEY = "sk-ant";
		const chosen = chooseModel({ spec: "claude-haiku-4-5:high" });
		expect(chosen.label).toBe("anthropic/claude-haiku-4-5");
		expect(chosen.thinking).toBe("high");
		expect(chosen.apiKey).toBe("sk-ant");
	});

	it("reads provider/id as the catalog entry first, so the key check names that provider", () => {
		process.env.OPENROUTER_API_KEY = "k"; // openrouter also lists an "openai/gpt-4o-mini"
		expect(() => chooseModel({ spec: "openai/gpt-4o-mini" })).toThrow("no API key for openai: set OPENAI_API_KEY, or run pi-ai keys set openai");
		expect(chooseModel({ spec: "openrouter/openai/gpt-4o-mini" }).label).toBe("openrouter/openai/gpt-4o-mini");
	});
});
