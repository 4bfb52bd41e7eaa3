import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { jsonResponse, loadFixture, sseResponse } from "@pi/ai/testing";
import { describe, expect, it } from "vitest";
import { runCli } from "./helpers/run-cli.js";
import { useCliTestContext } from "./helpers/cli-test-context.js";

const cli = useCliTestContext();

/** No stack trace reaches the user: no "    at " frames, no file URLs. */
function expectNoStackTrace(stderr: string): void {
	expect(stderr).not.toMatch(/^\s+at /m);
	expect(stderr).not.toContain("file://");
}

describe("exit code 0", () => {
	it("for a finished reply", async () => {
		cli.server.enqueue(sseResponse(loadFixture("openai-completions", "text-basic")));
		const result = await runCli(["--base-url", `${cli.server.url}/v1`, "-m", "m", "Hi"], { env: cli.home.env() });
		expect(result.code).toBe(0);
	});

	it("for a reply cut at the output limit, with a note on stderr", async () => {
		cli.server.enqueue(sseResponse(loadFixture("openai-completions", "length")));
		const result = await runCli(["--base-url", `${cli.server.url}/v1`, "-m", "m", "List the states"], { env: cli.home.env() });
		expect(result.code).toBe(0);
		expect(result.stderr).toContain("cut off at the model's output limit");
	});
});

describe("exit code 1: the model's reply is an error", () => {
	it("shows the provider's message from an HTTP error", async () => {
		cli.server.enqueue(jsonResponse(401, { error: { message: "Incorrect API key provided: sk-te***ey.", type: "invalid_request_error" } }));
		const result = await runCli(["-m", "openai/gpt-4o-mini", "--base-url", `${cli.server.url}/v1`, "Hi"], { env: cli.home.env({ OPENAI_API_KEY: "sk-test-key" }) });
		expect(result.code).toBe(1);
		expect(result.stderr).toContain("openai/gpt-4o-mini replied with an error");
		expect(result.stderr).toContain("Incorrect API key provided");
		expect(result.stderr).not.toContain("sk-test-key");
		expectNoStackTrace(result.stderr);
	});

	it("shows an error that arrives inside the stream, keeping the text before it", async () => {
		cli.server.enqueue(sseResponse(loadFixture("openai-responses", "error-insufficient-quota")));
		const result = await runCli(["-m", "openai/gpt-4o-mini", "--base-url", `${cli.server.url}/v1`, "Hi"], { env: cli.home.env({ OPENAI_API_KEY: "test-key" }) });
		expect(result.code).toBe(1);
		expect(result.stderr).toMatch(/replied with an error: .*quota/i);
	});

	it("in --json mode too, with the error message in the result line", async () => {
		cli.server.enqueue(jsonResponse(400, { error: { message: "Invalid value for 'temperature'.", type: "invalid_request_error" } }));
		const result = await runCli(["--json", "--base-url", `${cli.server.url}/v1`, "-m", "m", "Hi"], { env: cli.home.env() });
		expect(result.code).toBe(1);
		const last = JSON.parse(result.stdout.trimEnd().split("\n").at(-1) ?? "{}");
		expect(last.type).toBe("result");
		expect(last.message.stopReason).toBe("error");
		expect(last.message.errorMessage).toContain("Invalid value for 'temperature'.");
	});
});

describe("exit code 2: usage errors name what is wrong, without a stack trace", () => {
	const cases: [string, string[], RegExp][] = [
		["an unknown flag", ["--frobnicate", "Hi"], /unknown option --frobnicate \(see pi-ai --help\)/],
		["a flag without its value", ["Hi", "-m"], /option --model needs a value/],
		["a value for a boolean flag", ["--json=yes", "Hi"], /option --json takes no value/],
		["an unknown model, with the closest ids", ["-m", "anthropic/claude-haiku-45", "Hi"], /unknown model anthropic\/claude-haiku-45; did you mean anthropic\/claude-haiku-4-5/],
		["an unknown provider", ["-m", "nosuchvendor/x", "Hi"], /unknown provider "nosuchvendor"/],
		["a missing key, naming the variable", ["-m", "anthropic/claude-haiku-4-5", "Hi"], /no API key for anthropic: set ANTHROPIC_OAUTH_TOKEN or ANTHROPIC_API_KEY, or run pi-ai keys set anthropic/],
		["no prompt at all", ["-m", "anthropic/claude-haiku-4-5"], /no prompt/],
		["an unknown built-in tool", ["--tool", "abacus", "Hi"], /unknown tool "abacus" for --tool; built-in tools: calculator/],
		["a missing tools module", ["--tools", "./nope.js", "Hi"], /cannot load tools from \.\/nope\.js: no such file/],
		["an unreadable attachment", ["-a", "missing.png", "Hi"], /cannot read attachment missing\.png: no such file/],
		["an unknown command for help", ["help", "frob"], /no help for "frob"/],
	];
	for (const [what, args, message] of cases) {
		it(`for ${what}`, async () => {
			const result = await runCli(args, { env: cli.home.env({ ANTHROPIC_API_KEY: what.includes("missing key") ? "" : "k" }), cwd: cli.home.dir });
			expect(result.stderr).toMatch(message);
			expect(result.code).toBe(2);
			expect(result.stdout).toBe("");
			expectNoStackTrace(result.stderr);
		});
	}

	it("for an attachment that is not an image", async () => {
		writeFileSync(join(cli.home.dir, "notes.txt"), "just text");
		const result = await runCli(["-a", "notes.txt", "-m", "anthropic/claude-haiku-4-5", "Hi"], { env: cli.home.env({ ANTHROPIC_API_KEY: "k" }), cwd: cli.home.dir });
		expect(result.code).toBe(2);
		expect(result.stderr).toContain("attachment notes.txt is not an image (PNG, JPEG, GIF or WebP)");
	});

	it("and no request is made", async () => {
		await runCli(["-m", "anthropic/claude-haiku-4-5", "--base-url", "not a url", "Hi"], { env: cli.home.env({ ANTHROPIC_API_KEY: "k" }) });
		expect(cli.server.requests).toHaveLength(0);
	});
});
