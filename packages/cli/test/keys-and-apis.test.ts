/**
 * Keys and wire APIs (issue 38 §3, issue 25 item 18): a missing key is a usage error before any
 * request, a server on this machine needs none on any API, a Responses model pointed at a Chat
 * Completions server names `--api openai-completions`, and a keys file or key that cannot be used
 * safely is named.
 */
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadFixture, sseResponse, textResponse } from "@pi/ai/testing";
import { describe, expect, it } from "vitest";
import { useCliTestContext } from "./helpers/cli-test-context.js";
import { runCli } from "./helpers/run-cli.js";

const cli = useCliTestContext();

describe("a missing key", () => {
	it("is a usage error naming the variable and pi-ai keys set, with no usage line, for a catalog model and for a remote --base-url", async () => {
		for (const extra of [[], ["--base-url", "https://llm-gateway.example/v1"]]) {
			const result = await runCli(["-m", "openai/gpt-4o-mini", ...extra, "Hi"], { env: cli.home.env() });
			expect(result.code).toBe(2);
			expect(result.stderr).toBe("pi-ai: no API key for openai: set OPENAI_API_KEY, or run pi-ai keys set openai\n");
		}
		const added = await runCli(["models", "add", "remote-claude", "--base-url", "https://llm-gateway.example", "--api", "anthropic-messages"], { env: cli.home.env() });
		expect(added.code).toBe(0);
		const compatible = await runCli(["-m", "remote-claude", "Hi"], { env: cli.home.env() });
		expect(compatible.code).toBe(2);
		expect(compatible.stderr).toContain("no API key for openai-compatible: set PI_API_KEY, or run pi-ai keys set openai-compatible");
		expect(cli.server.requests).toHaveLength(0);
	});

	it("is no error on a loopback server, for every wire API", async () => {
		const cases: [string, string, string, string][] = [
			["openai/gpt-4o-mini", `${cli.server.url}/v1`, "openai-responses", "/v1/responses"],
			["anthropic/claude-haiku-4-5", cli.server.url, "anthropic-messages", "/v1/messages"],
			["google/gemini-2.5-flash", `${cli.server.url}/v1beta`, "google-generative-ai", "/v1beta/models/gemini-2.5-flash:streamGenerateContent"],
			["groq/llama-3.3-70b-versatile", `${cli.server.url}/v1`, "openai-completions", "/v1/chat/completions"],
		];
		for (const [spec, baseUrl, api, path] of cases) {
			cli.server.reset();
			cli.server.enqueue(sseResponse(loadFixture(api, "text-basic")));
			const result = await runCli(["-m", spec, "--base-url", baseUrl, "Hi"], { env: cli.home.env() });
			expect(result.stderr).not.toContain("no API key");
			expect(result.code).toBe(0);
			expect(cli.server.requests[0]?.path).toContain(path);
		}
	});
});

describe("a Responses model at a Chat Completions server", () => {
	const args = () => ["-m", "openai/gpt-4o-mini", "--base-url", `${cli.server.url}/v1`, "Hi"];

	it("a 404, or a body of Chat Completions chunks, names --api openai-completions; with it the reply streams", async () => {
		cli.server.enqueue(textResponse(404, "404 page not found"));
		const notFound = await runCli(args(), { env: cli.home.env({ OPENAI_API_KEY: "k" }) });
		expect(notFound.code).toBe(1);
		expect(notFound.stderr).toContain("pi-ai: the server may speak Chat Completions: pass --api openai-completions");

		cli.server.enqueue(sseResponse(loadFixture("openai-completions", "text-basic")));
		const foreign = await runCli(args(), { env: cli.home.env({ OPENAI_API_KEY: "k" }) });
		expect(foreign.code).toBe(1);
		expect(foreign.stderr).toContain("The stream held no Responses events");
		expect(foreign.stderr).toContain("pass --api openai-completions");

		cli.server.enqueue(sseResponse(loadFixture("openai-completions", "text-basic")));
		const fixed = await runCli([...args(), "--api", "openai-completions"], { env: cli.home.env({ OPENAI_API_KEY: "k" }) });
		expect(fixed.code).toBe(0);
		expect(fixed.stdout).toBe("The capital of the UK is London.\n");
		expect(cli.server.requests.map((request) => request.path)).toEqual(["/v1/responses", "/v1/responses", "/v1/chat/completions"]);
	});
});

describe("keys that cannot be used safely", () => {
	it("a keys file others can read is used with a warning", async () => {
		mkdirSync(join(cli.home.configHome, "pi-ai"), { recursive: true });
		const file = join(cli.home.configHome, "pi-ai", "keys.json");
		writeFileSync(file, JSON.stringify({ openai: "sk-from-file" }));
		chmodSync(file, 0o644);
		const list = await runCli(["keys", "list"], { env: cli.home.env() });
		expect(list.stderr).toContain(`pi-ai: warning: ${file} is readable by others (mode 644); run chmod 600 ${file}`);
		chmodSync(file, 0o600);
		expect((await runCli(["keys", "list"], { env: cli.home.env() })).stderr).not.toContain("warning");
	});

	it("a key with a character that cannot go in a header is named before any request, never printed", async () => {
		const key = "sk-abc\u201cdef-0123456789";
		const result = await runCli(["-m", "openai/gpt-4o-mini", "--base-url", `${cli.server.url}/v1`, "Hi"], { env: cli.home.env({ OPENAI_API_KEY: key }) });
		expect(result.code).toBe(2);
		expect(result.stderr).toBe(
			"pi-ai: the API key for openai (from OPENAI_API_KEY) has a character that cannot go in an HTTP header at position 7 (U+201C); copy the key again (pi-ai keys set openai)\n",
		);
		expect(result.stderr).not.toContain("sk-abc");
		expect(cli.server.requests).toHaveLength(0);
	});
});
