import { getModels, getProviders } from "@pi/ai";
import { loadFixture, sseResponse } from "@pi/ai/testing";
import { expect, it } from "vitest";
import { useCliTestContext } from "./helpers/cli-test-context.js";
import { runCli } from "./helpers/run-cli.js";

const cli = useCliTestContext();

it("pi-ai models prints a table of the whole catalog: provider, id, context, prices, key", async () => {
	const result = await runCli(["models"], { env: cli.home.env({ ANTHROPIC_API_KEY: "k" }) });
	expect(result.code).toBe(0);
	const lines = result.stdout.trimEnd().split("\n");
	expect(lines[0]).toMatch(/^PROVIDER\s+MODEL\s+CONTEXT\s+IN \$\/M\s+OUT \$\/M\s+KEY$/);
	const total = getProviders().reduce((sum, provider) => sum + getModels(provider).length, 0);
	expect(lines).toHaveLength(total + 1);
	expect(lines).toContainEqual(expect.stringMatching(/^anthropic\s+claude-haiku-4-5\s+200k\s+1\s+5\s+env$/));
	expect(lines).toContainEqual(expect.stringMatching(/^openai\s+gpt-4o-mini\s+128k\s+0\.15\s+0\.6\s+-$/));
	expect(result.stdout).not.toContain("\x1b["); // not a TTY
});

it("pi-ai models FILTER --json gives the same rows as JSON, with whether a key is set", async () => {
	const result = await runCli(["models", "haiku-4-5", "--json"], { env: cli.home.env({ ANTHROPIC_API_KEY: "k" }) });
	expect(result.code).toBe(0);
	const rows = JSON.parse(result.stdout) as Record<string, unknown>[];
	expect(rows.length).toBeGreaterThan(0);
	expect(rows.every((row) => String(row.id).includes("haiku-4-5"))).toBe(true);
	expect(rows).toContainEqual(
		expect.objectContaining({ provider: "anthropic", id: "claude-haiku-4-5", contextWindow: 200_000, inputPrice: 1, outputPrice: 5, keySet: true, keySource: "env" }),
	);
	const withoutKey = JSON.parse((await runCli(["models", "anthropic/claude-haiku-4-5", "--json"], { env: cli.home.env() })).stdout);
	expect(withoutKey[0]).toMatchObject({ keySet: false, keySource: null });
});

it("pi-ai models with a filter that matches nothing says so and exits 1", async () => {
	const result = await runCli(["models", "no-such-model-anywhere"], { env: cli.home.env() });
	expect(result.code).toBe(1);
	expect(result.stderr).toContain('no model matches "no-such-model-anywhere"');
});

it("pi-ai models default sets the model a prompt without -m uses; PI_AI_MODEL wins over it", async () => {
	const set = await runCli(["models", "default", "openai/gpt-4o-mini"], { env: cli.home.env() });
	expect(set.code).toBe(0);
	expect((await runCli(["models", "default"], { env: cli.home.env() })).stdout).toBe("openai/gpt-4o-mini\n");

	cli.server.enqueue(sseResponse(loadFixture("openai-responses", "text-basic")));
	const prompt = await runCli(["--base-url", `${cli.server.url}/v1`, "Hi"], { env: cli.home.env({ OPENAI_API_KEY: "k" }) });
	expect(prompt.code).toBe(0);
	expect((cli.server.requests.at(-1)?.json as { model: string }).model).toBe("gpt-4o-mini");

	const overridden = await runCli(["Hi"], { env: cli.home.env({ PI_AI_MODEL: "anthropic/claude-haiku-4-5" }) });
	expect(overridden.stderr).toContain("no API key for anthropic");
});

it("with nothing configured and no key set, a prompt names the variables to set", async () => {
	const requestsBefore = cli.server.requests.length;
	const none = await runCli(["Hi"], { env: cli.home.env() });
	expect(none.code).toBe(2);
	expect(none.stderr).toContain("no API key is set: set ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY (or run pi-ai keys set PROVIDER), or pick a model with -m");
	expect(cli.server.requests).toHaveLength(requestsBefore);
});
