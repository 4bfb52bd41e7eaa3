/**
 * Errors that say what to do next (issue 38 §4): a rejected key names its variable, a 404 on an
 * OpenAI-style base URL without `/v1` suggests adding it, a server that cannot be reached is
 * "could not reach URL (reason)", and a usage error prints no usage line.
 */
import { createServer } from "node:net";
import { jsonResponse, textResponse } from "@pi/ai/testing";
import { describe, expect, it } from "vitest";
import { useCliTestContext } from "./helpers/cli-test-context.js";
import { runCli } from "./helpers/run-cli.js";

const cli = useCliTestContext();

/** A loopback port with nothing listening on it: bound once, then released. */
async function closedPort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as { port: number };
	await new Promise((resolve) => server.close(resolve));
	return port;
}

describe("a rejected key", () => {
	for (const status of [401, 403]) {
		it(`${status}: names the key's variable and pi-ai keys set`, async () => {
			cli.server.enqueue(jsonResponse(status, { error: { message: "Incorrect API key provided." } }));
			const result = await runCli(["-m", "openai/gpt-4o-mini", "--base-url", `${cli.server.url}/v1`, "Hi"], { env: cli.home.env({ OPENAI_API_KEY: "sk-wrong" }) });
			expect(result.code).toBe(1);
			expect(result.stderr).toContain(`openai/gpt-4o-mini replied with an error: HTTP ${status}`);
			expect(result.stderr).toContain("pi-ai: check the key for openai: set OPENAI_API_KEY, or run pi-ai keys set openai");
		});
	}
});

describe("a 404", () => {
	it("on a base URL without /v1, for an OpenAI-style API, suggests adding /v1", async () => {
		cli.server.enqueue(textResponse(404, "404 page not found"));
		const result = await runCli(["--base-url", cli.server.url, "-m", "llama3.1", "Hi"], { env: cli.home.env() });
		expect(result.code).toBe(1);
		expect(result.stderr).toContain(`pi-ai: the base URL ${cli.server.url} does not end in /v1, as OpenAI-style servers' usually do: try --base-url ${cli.server.url}/v1`);
		expect(cli.server.requests[0]?.path).toBe("/chat/completions");
	});

	it("on a base URL ending in /v1 suggests nothing of the kind", async () => {
		cli.server.enqueue(textResponse(404, "404 page not found"));
		const result = await runCli(["--base-url", `${cli.server.url}/v1`, "-m", "llama3.1", "Hi"], { env: cli.home.env() });
		expect(result.code).toBe(1);
		expect(result.stderr).not.toContain("does not end in /v1");
	});
});

describe("a server that cannot be reached", () => {
	it("connection refused: could not reach URL (reason), exit 1, no usage line", async () => {
		const url = `http://127.0.0.1:${await closedPort()}/v1`;
		const result = await runCli(["--base-url", url, "-m", "llama3.1", "Hi"], { env: cli.home.env() });
		expect(result.code).toBe(1);
		expect(result.stderr).toMatch(new RegExp(`^pi-ai: could not reach ${url.replace(/[.]/g, "\\.")} \\(.*ECONNREFUSED.*\\)\\n$`));
	});

	it("a TLS failure (https to a plain-HTTP server) too", async () => {
		const url = `${cli.server.url.replace("http:", "https:")}/v1`;
		const result = await runCli(["--base-url", url, "-m", "llama3.1", "Hi"], { env: cli.home.env() });
		expect(result.code).toBe(1);
		expect(result.stderr).toMatch(/^pi-ai: could not reach https:\/\/127\.0\.0\.1:\d+\/v1 \(.+\)\n$/);
		expect(result.stderr).not.toContain("replied with an error");
	});
});

describe("usage errors", () => {
	it("print no usage line and send nothing", async () => {
		for (const args of [["-m", "anthropic/claude-haiku-4-5", "Hi"], ["-m", "nosuch/model", "Hi"], ["--api", "grpc", "--base-url", `${cli.server.url}/v1`, "-m", "m", "Hi"]]) {
			const result = await runCli(args, { env: cli.home.env() });
			expect(result.code).toBe(2);
			expect(result.stderr).not.toMatch(/ in · | out · |no prices/);
			expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
		}
		expect(cli.server.requests).toHaveLength(0);
	});
});
