/**
 * A local model as a first-class choice (issue 38 §1, §2): a stream that ends with [DONE] alone,
 * PI_BASE_URL and PI_MODEL, and models added with `pi-ai models add`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadFixture, sseResponse } from "@pi/ai/testing";
import { describe, expect, it } from "vitest";
import { useCliTestContext } from "./helpers/cli-test-context.js";
import { runCli } from "./helpers/run-cli.js";
import { chatChunk, DONE } from "./helpers/chat-stream.js";

const cli = useCliTestContext();
const TEXT = loadFixture("openai-completions", "text-basic"); // "The capital of the UK is London."

/** A Chat Completions stream of content chunks and `[DONE]`, with no finish_reason anywhere. */
function doneOnlyStream(...parts: string[]): string {
	return `${parts.map((content) => chatChunk({ content })).join("")}${DONE}`;
}

describe("[DONE] ends a reply", () => {
	it("content chunks then [DONE], no finish_reason: the text, exit 0, no error", async () => {
		cli.server.enqueue(sseResponse(doneOnlyStream("Hello", " from Cortex.")));
		const result = await runCli(["--base-url", `${cli.server.url}/v1`, "-m", "cortex", "Hi"], { env: cli.home.env() });
		expect(result.stdout).toBe("Hello from Cortex.\n");
		expect(result.stderr).not.toMatch(/error/i);
		expect(result.code).toBe(0);
	});
});

describe("PI_BASE_URL and PI_MODEL", () => {
	it("name the server and the model when no flag does", async () => {
		cli.server.enqueue(sseResponse(TEXT));
		const result = await runCli(["Hi"], { env: cli.home.env({ PI_BASE_URL: `${cli.server.url}/v1`, PI_MODEL: "llama3.1:8b" }) });
		expect(result.code).toBe(0);
		expect(cli.server.requests).toHaveLength(1);
		expect(cli.server.requests[0]?.path).toBe("/v1/chat/completions");
		expect((cli.server.requests[0]?.json as { model: string }).model).toBe("llama3.1:8b");
	});

	it("lose to -m and --base-url", async () => {
		cli.server.enqueue(sseResponse(TEXT));
		// PI_BASE_URL points nowhere: were it used, nothing would reach this server.
		const env = cli.home.env({ PI_BASE_URL: "http://127.0.0.1:1/v1", PI_MODEL: "from-env" });
		const result = await runCli(["--base-url", `${cli.server.url}/v1`, "-m", "from-flag", "Hi"], { env });
		expect(result.code).toBe(0);
		expect((cli.server.requests[0]?.json as { model: string }).model).toBe("from-flag");
	});

	it("PI_MODEL wins over PI_AI_MODEL and the configured default", async () => {
		await runCli(["models", "default", "openai/gpt-4o-mini"], { env: cli.home.env() });
		cli.server.enqueue(sseResponse(TEXT));
		const result = await runCli(["Hi"], { env: cli.home.env({ PI_BASE_URL: `${cli.server.url}/v1`, PI_MODEL: "from-pi-model", PI_AI_MODEL: "anthropic/claude-haiku-4-5" }) });
		expect(result.code).toBe(0);
		expect((cli.server.requests[0]?.json as { model: string }).model).toBe("from-pi-model");
	});

	it("are documented in --help", async () => {
		const help = await runCli(["--help"], { env: cli.home.env() });
		expect(help.stdout).toContain("PI_BASE_URL (as --base-url)");
		expect(help.stdout).toContain("PI_MODEL (the default model");
	});
});

describe("pi-ai models add", () => {
	const configFile = () => join(cli.home.configHome, "pi-ai", "config.json");

	it("saves a model outside the catalog: -m ID works, models lists it as added, models default takes it, models remove undoes it", async () => {
		const add = await runCli(["models", "add", "qwen3:4b", "--base-url", `${cli.server.url}/v1/`, "--name", "Qwen 3 (local)"], { env: cli.home.env() });
		expect(add.code).toBe(0);
		expect(add.stderr).toContain(`Added qwen3:4b (openai-completions at ${cli.server.url}/v1)`);
		expect(JSON.parse(readFileSync(configFile(), "utf8")).models["qwen3:4b"]).toEqual({ id: "qwen3:4b", baseUrl: `${cli.server.url}/v1`, api: "openai-completions", name: "Qwen 3 (local)" });

		cli.server.enqueue(sseResponse(TEXT));
		const prompt = await runCli(["-m", "qwen3:4b", "Hi"], { env: cli.home.env() });
		expect(prompt.code).toBe(0);
		expect(cli.server.requests[0]?.path).toBe("/v1/chat/completions");
		expect((cli.server.requests[0]?.json as { model: string }).model).toBe("qwen3:4b");
		expect(cli.server.requests[0]?.headers.authorization).toBeUndefined();
		expect(prompt.stderr).toContain("openai-compatible/qwen3:4b · ");

		const table = await runCli(["models", "qwen"], { env: cli.home.env() });
		expect(table.stdout).toMatch(/^added\s+qwen3:4b\s+128k\s+-\s+-\s+-$/m);
		const rows = JSON.parse((await runCli(["models", "qwen3", "--json"], { env: cli.home.env() })).stdout) as Record<string, unknown>[];
		expect(rows[0]).toMatchObject({ provider: "openai-compatible", id: "qwen3:4b", name: "Qwen 3 (local)", added: true, baseUrl: `${cli.server.url}/v1` });
		expect(rows.slice(1).every((row) => row.added === false)).toBe(true);

		const setDefault = await runCli(["models", "default", "qwen3:4b:low"], { env: cli.home.env() });
		expect(setDefault.code).toBe(0);
		expect(setDefault.stdout).toContain("default model: qwen3:4b:low");
		cli.server.enqueue(sseResponse(TEXT));
		expect((await runCli(["Hi"], { env: cli.home.env() })).code).toBe(0);
		expect((cli.server.requests[1]?.json as { model: string }).model).toBe("qwen3:4b");

		const replaced = await runCli(["models", "add", "qwen3:4b", "--base-url", `${cli.server.url}/v1`], { env: cli.home.env() });
		expect(replaced.stderr).toContain("Replaced qwen3:4b");
		expect(JSON.parse(readFileSync(configFile(), "utf8")).models["qwen3:4b"].name).toBeUndefined();

		const remove = await runCli(["models", "remove", "qwen3:4b"], { env: cli.home.env() });
		expect(remove.code).toBe(0);
		const gone = await runCli(["-m", "qwen3:4b", "Hi"], { env: cli.home.env() });
		expect(gone.code).toBe(2);
		expect(gone.stderr).toContain("unknown model qwen3:4b");
		expect(cli.server.requests).toHaveLength(2);
		const again = await runCli(["models", "remove", "qwen3:4b"], { env: cli.home.env() });
		expect(again.code).toBe(1);
		expect(again.stderr).toContain("no added model qwen3:4b");
	});

	it("--api picks the wire API: an Anthropic-style local server needs no key either", async () => {
		await runCli(["models", "add", "claude-local", "--base-url", cli.server.url, "--api", "anthropic-messages"], { env: cli.home.env() });
		cli.server.enqueue(sseResponse(loadFixture("anthropic-messages", "text-basic")));
		const result = await runCli(["-m", "claude-local", "Hi"], { env: cli.home.env() });
		expect(result.code).toBe(0);
		expect(cli.server.requests[0]?.path).toBe("/v1/messages");
		expect((cli.server.requests[0]?.json as { model: string }).model).toBe("claude-local");
	});

	it("refuses a missing --base-url, a URL that is not http(s) and an unknown --api, writing nothing", async () => {
		const cases: [string[], string][] = [
			[["models", "add", "m"], "pi-ai models add m needs --base-url URL"],
			[["models", "add", "m", "--base-url", "localhost:11434"], "only http and https URLs are supported"],
			[["models", "add", "m", "--base-url", "http://127.0.0.1:1/v1", "--api", "grpc"], "--api grpc: expected one of openai-completions, openai-responses, anthropic-messages, google-generative-ai"],
			[["models", "add", "--base-url", "http://127.0.0.1:1/v1"], "pi-ai models add takes one model id"],
		];
		for (const [args, message] of cases) {
			const result = await runCli(args, { env: cli.home.env() });
			expect(result.code).toBe(2);
			expect(result.stderr).toContain(message);
		}
		expect(() => readFileSync(configFile())).toThrow();
	});
});
