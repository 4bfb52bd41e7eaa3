import { loadFixture, sseResponse } from "@pi/ai/testing";
import { describe, expect, it } from "vitest";
import { expectedReply, printed, textOf, thinkingOf } from "./helpers/expected-reply.js";
import { runCli } from "./helpers/run-cli.js";
import { useCliTestContext } from "./helpers/cli-test-context.js";

const cli = useCliTestContext();

describe("pi-ai streams a reply to standard output", () => {
	it("prints exactly the reply's text on stdout, and usage, cost and time on stderr", async () => {
		const body = loadFixture("openai-responses", "text-basic");
		const expected = await expectedReply("openai", "gpt-4o-mini", body);
		cli.server.enqueue(sseResponse(body));
		const result = await runCli(["-m", "openai/gpt-4o-mini", "--base-url", `${cli.server.url}/v1`, "What is 4200 + 42?"], {
			env: cli.home.env({ OPENAI_API_KEY: "test-key" }),
		});
		expect(result.stderr).not.toMatch(/error/i);
		expect(result.code).toBe(0);
		expect(result.stdout).toBe(printed(textOf(expected)));
		expect(result.stderr).toContain(`openai/gpt-4o-mini · ${expected.usage.input} in · ${expected.usage.output} out · $`);
		expect(result.stderr).toMatch(/ · \d+\.\d s\n$/);
		const request = cli.server.requests[0];
		expect(request?.path).toBe("/v1/responses");
		expect(request?.headers.authorization).toBe("Bearer test-key");
		expect(JSON.stringify(request?.json)).toContain("What is 4200 + 42?");
	});

	it("joins piped standard input and the prompt argument, input first", async () => {
		cli.server.enqueue(sseResponse(loadFixture("openai-completions", "text-basic")));
		const result = await runCli(["--base-url", `${cli.server.url}/v1`, "-m", "llama3.1:8b", "Summarise this."], {
			env: cli.home.env(),
			input: "line one\nline two\n",
		});
		expect(result.code).toBe(0);
		const body = cli.server.requests[0]?.json as { model: string; messages: { role: string; content: unknown }[] };
		expect(body.model).toBe("llama3.1:8b"); // an Ollama tag is not a thinking level: it stays in the id
		const user = JSON.stringify(body.messages.find((message) => message.role === "user")?.content);
		expect(user).toContain("line one\\nline two\\n\\nSummarise this.");
	});

	it("sends -s as the system prompt", async () => {
		cli.server.enqueue(sseResponse(loadFixture("openai-completions", "text-basic")));
		const result = await runCli(["--base-url", `${cli.server.url}/v1`, "-m", "local-model", "-s", "You are terse.", "Hi"], { env: cli.home.env() });
		expect(result.code).toBe(0);
		const body = cli.server.requests[0]?.json as { messages: { role: string; content: unknown }[] };
		expect(body.messages[0]?.role).toMatch(/system|developer/);
		expect(JSON.stringify(body.messages[0]?.content)).toContain("You are terse.");
	});

	it("talks to any OpenAI-compatible server with --base-url and a model id outside the catalog", async () => {
		const body = loadFixture("openai-completions", "text-basic");
		cli.server.enqueue(sseResponse(body));
		const result = await runCli(["--base-url", `${cli.server.url}/v1/`, "-m", "meta-llama/Llama-3.1-8B-Instruct", "Capital of the UK?"], { env: cli.home.env() });
		expect(result.code).toBe(0);
		expect(result.stdout).toBe("The capital of the UK is London.\n");
		expect(cli.server.requests[0]?.path).toBe("/v1/chat/completions");
		expect((cli.server.requests[0]?.json as { model: string }).model).toBe("meta-llama/Llama-3.1-8B-Instruct");
		expect(cli.server.requests[0]?.headers.authorization).toBeUndefined(); // a local server gets no key
		expect(result.stderr).toContain("openai-compatible/meta-llama/Llama-3.1-8B-Instruct");
		expect(result.stderr).toContain("no prices");
	});

	it("asks for thinking with :level, shows it on stderr apart from the answer, and hides it with --no-thinking", async () => {
		const body = loadFixture("anthropic-messages", "thinking-signature");
		const expected = await expectedReply("anthropic", "claude-haiku-4-5", body);
		const args = ["-m", "anthropic/claude-haiku-4-5:high", "--base-url", cli.server.url, "How do I cross the street?"];
		const env = cli.home.env({ ANTHROPIC_API_KEY: "test-key" });

		cli.server.enqueue(sseResponse(body));
		const shown = await runCli(args, { env });
		expect(shown.code).toBe(0);
		expect(shown.stdout).toBe(printed(textOf(expected)));
		expect(shown.stderr).toContain(thinkingOf(expected));
		expect(shown.stderr).not.toContain("\x1b["); // not a TTY: no escapes
		expect((cli.server.requests[0]?.json as { thinking?: { type: string } }).thinking?.type).toMatch(/enabled|adaptive/);

		cli.server.enqueue(sseResponse(body));
		const hidden = await runCli([...args, "--no-thinking"], { env });
		expect(hidden.code).toBe(0);
		expect(hidden.stdout).toBe(shown.stdout);
		expect(hidden.stderr).not.toContain(thinkingOf(expected).slice(0, 40));
	});

	it("streams Gemini through its catalog model pointed at the server", async () => {
		const body = loadFixture("google-generative-ai", "text-basic");
		const expected = await expectedReply("google", "gemini-2.5-flash", body);
		cli.server.enqueue(sseResponse(body));
		const result = await runCli(["-m", "google/gemini-2.5-flash", "--base-url", `${cli.server.url}/v1beta`, "Hi"], { env: cli.home.env({ GEMINI_API_KEY: "test-key" }) });
		expect(result.code).toBe(0);
		expect(result.stdout).toBe(printed(textOf(expected)));
		expect(cli.server.requests[0]?.path).toContain("/v1beta/models/gemini-2.5-flash:streamGenerateContent");
	});
});
