/**
 * Continuing a conversation whose model is not the catalog's (issue 38 §2, issue 25 item 14): the
 * CLI keeps the base URL and API with the conversation, but reuses a recorded base URL only when
 * it is the catalog's, the user's own `models add` entry, or `--base-url` confirms it. A session
 * file must never send the user's key somewhere silently.
 */
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { loadFixture, sseResponse } from "@pi/ai/testing";
import { describe, expect, it } from "vitest";
import { useCliTestContext } from "./helpers/cli-test-context.js";
import { runCli } from "./helpers/run-cli.js";
import { messagesOf, sessionFiles } from "./helpers/session-file.js";

const cli = useCliTestContext();
const KEY = "sk-real-user-key-0123456789";

describe("a session whose recorded base URL is not the catalog's", () => {
	it("is refused with the flags to pass, sending nothing and no key; --base-url confirms it", async () => {
		// A conversation with a catalog model at another URL: what a hostile or shared file would hold.
		cli.server.enqueue(sseResponse(loadFixture("openai-responses", "text-basic")));
		await runCli(["-m", "openai/gpt-4o-mini", "--base-url", `${cli.server.url}/v1`, "Hi"], { env: cli.home.env({ OPENAI_API_KEY: KEY }) });
		const file = sessionFiles(cli.home.dataHome)[0] as string;
		expect(cli.server.requests).toHaveLength(1);

		const refused = await runCli(["--session", file, "And now?"], { env: cli.home.env({ OPENAI_API_KEY: KEY }) });
		expect(refused.code).toBe(2);
		expect(refused.stderr).toContain(`the conversation used openai/gpt-4o-mini at ${cli.server.url}/v1, not at the provider's own https://api.openai.com/v1`);
		expect(refused.stderr).toContain(`pass --base-url ${cli.server.url}/v1 to continue there, or -m openai/gpt-4o-mini for the provider's own API`);
		expect(refused.stderr).not.toContain(KEY);
		expect(cli.server.requests).toHaveLength(1);
		expect(messagesOf(file)).toHaveLength(2);

		cli.server.enqueue(sseResponse(loadFixture("openai-responses", "text-basic")));
		const confirmed = await runCli(["--session", file, "--base-url", `${cli.server.url}/v1`, "And now?"], { env: cli.home.env({ OPENAI_API_KEY: KEY }) });
		expect(confirmed.code).toBe(0);
		expect(cli.server.requests).toHaveLength(2);
		expect(messagesOf(file)).toHaveLength(4);
	});

	it("a model outside the catalog: -c says so and names --base-url and models add, instead of 'no API key is set'", async () => {
		cli.server.enqueue(sseResponse(loadFixture("openai-completions", "text-basic")), sseResponse(loadFixture("openai-completions", "text-basic")));
		await runCli(["--base-url", `${cli.server.url}/v1`, "-m", "nemo-finetune-7b", "Hi"], { env: cli.home.env() });
		const refused = await runCli(["-c", "Go on"], { env: cli.home.env({ PI_API_KEY: KEY }) });
		expect(refused.code).toBe(2);
		expect(refused.stderr).toContain(`the conversation's model openai-compatible/nemo-finetune-7b is not in the catalog (it ran at ${cli.server.url}/v1)`);
		expect(refused.stderr).toContain(`pass --base-url ${cli.server.url}/v1 to continue there, or save it once with pi-ai models add nemo-finetune-7b --base-url ${cli.server.url}/v1`);
		expect(refused.stderr).not.toContain("no API key");
		expect(cli.server.requests).toHaveLength(1);

		// The API comes back from the session: only the URL has to be confirmed.
		const confirmed = await runCli(["-c", "--base-url", `${cli.server.url}/v1`, "Go on"], { env: cli.home.env() });
		expect(confirmed.code).toBe(0);
		expect(cli.server.requests[1]?.path).toBe("/v1/chat/completions");
		expect((cli.server.requests[1]?.json as { model: string }).model).toBe("nemo-finetune-7b");
	});

	it("the wire API comes back from the session when --base-url confirms the URL", async () => {
		cli.server.enqueue(sseResponse(loadFixture("openai-responses", "text-basic")), sseResponse(loadFixture("openai-responses", "text-basic")));
		await runCli(["--base-url", `${cli.server.url}/v1`, "-m", "nemo-finetune-7b", "--api", "openai-responses", "Hi"], { env: cli.home.env() });
		const refused = await runCli(["-c", "Go on"], { env: cli.home.env() });
		expect(refused.stderr).toContain(`pi-ai models add nemo-finetune-7b --base-url ${cli.server.url}/v1 --api openai-responses`);
		const next = await runCli(["-c", "--base-url", `${cli.server.url}/v1`, "Go on"], { env: cli.home.env() });
		expect(next.code).toBe(0);
		expect(cli.server.requests.map((request) => request.path)).toEqual(["/v1/responses", "/v1/responses"]);
	});

	it("a session with no record of where its model ran says so and names -m and --base-url", async () => {
		cli.server.enqueue(sseResponse(loadFixture("openai-completions", "text-basic")));
		await runCli(["--base-url", `${cli.server.url}/v1`, "-m", "nemo-finetune-7b", "Hi"], { env: cli.home.env() });
		const file = sessionFiles(cli.home.dataHome)[0] as string;
		// As an older pi-ai, or another program, would have written it: no pi-ai.model entry.
		const lines = readFileSync(file, "utf8").trimEnd().split("\n");
		const kept = lines.filter((line) => !line.includes('"customType":"pi-ai.model"'));
		expect(kept).toHaveLength(lines.length - 1);
		writeFileSync(file, `${kept.join("\n").replace('"parentId":"' + (JSON.parse(lines[1] as string) as { id: string }).id + '"', '"parentId":null')}\n`);
		const result = await runCli(["-c", "Go on"], { env: cli.home.env() });
		expect(result.code).toBe(2);
		expect(result.stderr).toBe(
			"pi-ai: the conversation's model openai-compatible/nemo-finetune-7b is not in the catalog, and the session does not record where it ran: pass -m nemo-finetune-7b --base-url URL\n",
		);
		expect(cli.server.requests).toHaveLength(1);
	});

	it("a model the user added resumes with no flags, at the URL of the user's entry", async () => {
		await runCli(["models", "add", "gemma3", "--base-url", `${cli.server.url}/v1`, "--api", "openai-responses"], { env: cli.home.env() });
		cli.server.enqueue(sseResponse(loadFixture("openai-responses", "text-basic")), sseResponse(loadFixture("openai-responses", "text-basic")));
		expect((await runCli(["-m", "gemma3", "Hi"], { env: cli.home.env() })).code).toBe(0);
		const next = await runCli(["-c", "Go on"], { env: cli.home.env() });
		expect(next.code).toBe(0);
		expect(cli.server.requests.map((request) => request.path)).toEqual(["/v1/responses", "/v1/responses"]);
	});

	it("a record edited to point elsewhere is not trusted for an added model's id either", async () => {
		await runCli(["models", "add", "gemma3", "--base-url", `${cli.server.url}/v1`], { env: cli.home.env() });
		cli.server.enqueue(sseResponse(loadFixture("openai-completions", "text-basic")), sseResponse(loadFixture("openai-completions", "text-basic")));
		await runCli(["-m", "gemma3", "Hi"], { env: cli.home.env() });
		const file = sessionFiles(cli.home.dataHome)[0] as string;
		// Rewrite the record's URL: the user's entry, not the file, says where gemma3 lives.
		const text = readFileSync(file, "utf8").replace(`"baseUrl":"${cli.server.url}/v1"`, '"baseUrl":"http://198.51.100.7/v1"');
		writeFileSync(file, text);
		const next = await runCli(["--session", file, "Go on"], { env: cli.home.env({ PI_API_KEY: KEY }) });
		expect(next.code).toBe(0);
		expect(cli.server.requests).toHaveLength(2);
		expect(cli.server.requests[1]?.headers.authorization).toBe(`Bearer ${KEY}`);
	});

	it("a session's escape sequences never reach the error message", async () => {
		cli.server.enqueue(sseResponse(loadFixture("openai-completions", "text-basic")));
		await runCli(["--base-url", `${cli.server.url}/v1`, "-m", "local", "Hi"], { env: cli.home.env() });
		const file = sessionFiles(cli.home.dataHome)[0] as string;
		const lines = readFileSync(file, "utf8").trimEnd().split("\n");
		const last = JSON.parse(lines.at(-1) as string) as { id: string };
		const record = { type: "custom", id: "evil0001", parentId: last.id, timestamp: Date.now(), customType: "pi-ai.model", data: { id: "local", provider: "openai-compatible", api: "openai-completions", baseUrl: "http://evil.example/\u001b]0;owned\u0007" } };
		appendFileSync(file, `${JSON.stringify(record)}\n`);
		const result = await runCli(["--session", file, "Go on"], { env: cli.home.env() });
		expect(result.code).toBe(2);
		expect(result.stderr).toContain("http://evil.example/\\x1b]0;owned\\x07");
		expect(result.stderr).not.toContain("\u001b");
	});
});
