import { readFileSync, statSync, writeFileSync, mkdirSync, chmodSync } from "node:fs";
import { join } from "node:path";
import { loadFixture, sseResponse } from "@pi/ai/testing";
import { describe, expect, it } from "vitest";
import { runCli } from "./helpers/run-cli.js";
import { useCliTestContext } from "./helpers/cli-test-context.js";

const cli = useCliTestContext();
const KEY = "sk-test-0123456789abcdef";

const keysFile = () => join(cli.home.configHome, "pi-ai", "keys.json");

describe("pi-ai keys set", () => {
	it("stores the key in a file only the user can read (600, folder 700) and never prints it", async () => {
		const result = await runCli(["keys", "set", "openai"], { env: cli.home.env(), input: `${KEY}\n` });
		expect(result.code).toBe(0);
		expect(statSync(keysFile()).mode & 0o777).toBe(0o600);
		expect(statSync(join(cli.home.configHome, "pi-ai")).mode & 0o777).toBe(0o700);
		expect(JSON.parse(readFileSync(keysFile(), "utf8"))).toEqual({ openai: KEY });
		expect(result.stdout + result.stderr).not.toContain(KEY);
		expect(result.stderr).toContain(`Stored the key for openai in ${keysFile()}`);
	});

	it("keeps mode 600 when it rewrites a keys file that was readable by others", async () => {
		mkdirSync(join(cli.home.configHome, "pi-ai"), { recursive: true });
		writeFileSync(keysFile(), "{}\n");
		chmodSync(keysFile(), 0o644);
		await runCli(["keys", "set", "anthropic"], { env: cli.home.env(), input: KEY });
		expect(statSync(keysFile()).mode & 0o777).toBe(0o600);
	});

	it("is the key a prompt then uses, sent only in the header", async () => {
		await runCli(["keys", "set", "openai"], { env: cli.home.env(), input: KEY });
		cli.server.enqueue(sseResponse(loadFixture("openai-responses", "text-basic")));
		const result = await runCli(["-m", "openai/gpt-4o-mini", "--base-url", `${cli.server.url}/v1`, "Hi"], { env: cli.home.env() });
		expect(result.code).toBe(0);
		expect(cli.server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
		expect(cli.server.requests[0]?.path).not.toContain(KEY);
		expect(result.stdout + result.stderr).not.toContain(KEY);
	});

	it("loses to a key in the environment, and says so", async () => {
		const result = await runCli(["keys", "set", "openai"], { env: cli.home.env({ OPENAI_API_KEY: "from-env" }), input: KEY });
		expect(result.stderr).toContain("OPENAI_API_KEY is set in the environment and is used instead");
		cli.server.enqueue(sseResponse(loadFixture("openai-responses", "text-basic")));
		await runCli(["-m", "openai/gpt-4o-mini", "--base-url", `${cli.server.url}/v1`, "Hi"], { env: cli.home.env({ OPENAI_API_KEY: "from-env" }) });
		expect(cli.server.requests[0]?.headers.authorization).toBe("Bearer from-env");
	});

	it("refuses an unknown provider with a suggestion, and an empty key", async () => {
		const unknown = await runCli(["keys", "set", "anthropc"], { env: cli.home.env(), input: KEY });
		expect(unknown.code).toBe(2);
		expect(unknown.stderr).toContain('unknown provider "anthropc"; did you mean anthropic?');
		const empty = await runCli(["keys", "set", "openai"], { env: cli.home.env(), input: "\n" });
		expect(empty.code).toBe(2);
		expect(empty.stderr).toContain("no key given");
	});
});

describe("pi-ai keys list and remove", () => {
	it("lists where each key comes from without printing any, and removes a stored one", async () => {
		await runCli(["keys", "set", "anthropic"], { env: cli.home.env(), input: KEY });
		const list = await runCli(["keys", "list"], { env: cli.home.env({ GROQ_API_KEY: "groq-secret" }) });
		expect(list.code).toBe(0);
		expect(list.stdout).toMatch(/^anthropic\s+keys file/m);
		expect(list.stdout).toMatch(/^groq\s+environment \(GROQ_API_KEY\)/m);
		expect(list.stdout).toMatch(/^openai\s+not set\s+OPENAI_API_KEY/m);
		expect(list.stdout).not.toContain(KEY);
		expect(list.stdout).not.toContain("groq-secret");

		const removed = await runCli(["keys", "remove", "anthropic"], { env: cli.home.env() });
		expect(removed.code).toBe(0);
		expect(JSON.parse(readFileSync(keysFile(), "utf8"))).toEqual({});
		const again = await runCli(["keys", "remove", "anthropic"], { env: cli.home.env() });
		expect(again.code).toBe(1);
	});
});
