/**
 * Suggestions that exist (issue 38 §5): an unknown provider lists the providers, never a model
 * that does not exist; a word after `:` that is not a thinking level lists the levels; a mistyped
 * flag or command is named with what was meant, before any request; `--version`.
 */
import { readFileSync } from "node:fs";
import { getModel } from "@pi/ai";
import { loadFixture, sseResponse } from "@pi/ai/testing";
import { describe, expect, it } from "vitest";
import { useCliTestContext } from "./helpers/cli-test-context.js";
import { runCli } from "./helpers/run-cli.js";

const cli = useCliTestContext();

describe("-m", () => {
	it("an unknown provider with no near model lists the providers and suggests no model", async () => {
		const result = await runCli(["-m", "foo/bar", "Hi"], { env: cli.home.env() });
		expect(result.code).toBe(2);
		expect(result.stderr).toMatch(/^pi-ai: unknown provider "foo" in -m foo\/bar; providers: anthropic, .*google, .*openai/);
		expect(result.stderr).not.toContain("did you mean");
		const near = await runCli(["-m", "gogle/bar", "Hi"], { env: cli.home.env() });
		expect(near.stderr).not.toContain("google/bar");
		expect(cli.server.requests).toHaveLength(0);
	});

	it("every model suggested exists", async () => {
		const result = await runCli(["-m", "anthropc/claude-haiku-4-5", "Hi"], { env: cli.home.env() });
		expect(result.code).toBe(2);
		const suggested = /did you mean ([^?]+)\?/.exec(result.stderr)?.[1]?.split(", ") ?? [];
		expect(suggested).toContain("anthropic/claude-haiku-4-5");
		for (const spec of suggested) expect(getModel(spec.slice(0, spec.indexOf("/")), spec.slice(spec.indexOf("/") + 1))).toBeDefined();
	});

	it("a suffix that is not a thinking level is named, with the levels", async () => {
		const result = await runCli(["-m", "anthropic/claude-haiku-4-5:ultra", "Hi"], { env: cli.home.env({ ANTHROPIC_API_KEY: "k" }) });
		expect(result.code).toBe(2);
		expect(result.stderr).toBe('pi-ai: "ultra" in -m anthropic/claude-haiku-4-5:ultra is not a thinking level; levels: off, minimal, low, medium, high, xhigh\n');
	});
});

describe("a mistyped flag", () => {
	it("names the flag meant", async () => {
		const result = await runCli(["--modle", "anthropic/claude-haiku-4-5", "Hi"], { env: cli.home.env() });
		expect(result.code).toBe(2);
		expect(result.stderr).toBe("pi-ai: unknown option --modle; did you mean --model? (see pi-ai --help)\n");
	});
});

describe("a mistyped command", () => {
	it("one edit from a command, with nothing on stdin, is refused before any request, suggesting the command and --", async () => {
		const cases: [string[], string][] = [
			[["model", "haiku"], 'pi-ai: "model" is not a command; did you mean pi-ai models haiku? (to send it as a prompt: pi-ai -- model haiku)\n'],
			[["sesions"], 'pi-ai: "sesions" is not a command; did you mean pi-ai sessions? (to send it as a prompt: pi-ai -- sesions)\n'],
		];
		for (const [args, message] of cases) {
			const result = await runCli([...args], { env: cli.home.env({ PI_BASE_URL: `${cli.server.url}/v1`, PI_MODEL: "m" }) });
			expect(result.code).toBe(2);
			expect(result.stderr).toBe(message);
		}
		expect(cli.server.requests).toHaveLength(0);
	});

	it("after --, or with input on stdin, is a prompt; short words and other cases are prompts too", async () => {
		const env = cli.home.env({ PI_BASE_URL: `${cli.server.url}/v1`, PI_MODEL: "m" });
		const prompts: [string[], string | undefined][] = [
			[["--", "model", "haiku"], undefined],
			[["model", "haiku"], "Write about this model."],
			[["how", "are", "you"], undefined],
			[["Show", "me", "a", "haiku"], undefined],
		];
		for (const [args, input] of prompts) {
			cli.server.enqueue(sseResponse(loadFixture("openai-completions", "text-basic")));
			const result = await runCli(args, { env, input });
			expect(result.code).toBe(0);
		}
		expect(cli.server.requests).toHaveLength(prompts.length);
		expect(JSON.stringify(cli.server.requests[1]?.json)).toContain("Write about this model.\\n\\nmodel haiku");
	});
});

describe("pi-ai --version", () => {
	it("prints the package's version and exits 0", async () => {
		const version = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;
		const result = await runCli(["--version"], { env: cli.home.env() });
		expect(result.code).toBe(0);
		expect(result.stdout).toBe(`${version}\n`);
		expect(result.stderr).toBe("");
	});
});
