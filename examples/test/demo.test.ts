import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReplayServer, sseResponse, startReplayServer } from "@pi/ai/testing";

const run = promisify(execFile);
const demo = fileURLToPath(new URL("../demo.ts", import.meta.url));

const sessions = mkdtempSync(join(tmpdir(), "pi-demo-test-"));
afterAll(() => rmSync(sessions, { recursive: true, force: true }));
let sessionCount = 0;

/**
 * The environment without provider keys or colour settings, plus `env`, on a fresh session file
 * unless `PI_DEMO_SESSION` is given.
 */
function demoEnv(env: Record<string, string>): Record<string, string | undefined> {
	const clean = Object.fromEntries(
		Object.entries(process.env).filter(([key]) => !/_API_KEY$|^PI_|OPENAI_BASE_URL|_OAUTH_TOKEN$|^NO_COLOR$|^FORCE_COLOR$|^NODE_DISABLE_COLORS$/.test(key)),
	);
	return { ...clean, TERM: "xterm-256color", PI_DEMO_SESSION: join(sessions, `session-${++sessionCount}.jsonl`), ...env };
}

/** Runs `pnpm demo`'s script with the given environment (no provider keys unless given). */
async function runDemo(env: Record<string, string>) {
	return run(process.execPath, ["--import", "tsx", "--conditions=development", demo], { env: demoEnv(env), timeout: 90_000 });
}

/**
 * Runs it on a pseudo-terminal (util-linux `script`), as a person at a terminal sees it: stdout and
 * stderr together. Without `CI`: Node turns colours off under a generic `CI` variable (which
 * `.ci/run` sets), and a person's terminal has none.
 */
async function runDemoOnTerminal(env: Record<string, string>): Promise<string> {
	const command = [process.execPath, "--import", "tsx", "--conditions=development", demo].map((part) => `'${part}'`).join(" ");
	const { CI: _ci, ...terminalEnv } = demoEnv(env);
	const { stdout } = await run("script", ["-q", "-c", command, "/dev/null"], { env: terminalEnv, timeout: 90_000 });
	return stdout;
}

/** A base URL where nothing listens: a replay server's port, after it closed. */
async function refusingBaseUrl(): Promise<string> {
	const closed = await startReplayServer();
	const url = `${closed.url}/v1`;
	await closed.close();
	return url;
}

function chatChunk(delta: Record<string, unknown>, finish: string | null = null): string {
	return `data: ${JSON.stringify({ id: "chatcmpl-1", object: "chat.completion.chunk", model: "llama3.1", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());

describe("pnpm demo", () => {
	it("runs the calculator agent offline on the scripted provider", async () => {
		const { stdout } = await runDemo({});
		expect(stdout).toContain("built-in scripted provider");
		expect(stdout).toContain('→ calculator({"a":3,"b":4,"op":"+"})');
		expect(stdout).toContain("tool result: 7");
		expect(stdout).toContain("3 + 4 = 7");
		const transcript = JSON.parse(stdout.slice(stdout.indexOf("[\n")));
		expect(transcript.map((m: { role: string }) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
		expect(transcript[2]).toMatchObject({ toolName: "calculator", content: [{ type: "text", text: "7" }], isError: false });
		expect(transcript[3]).toMatchObject({ stopReason: "stop", usage: { cost: { total: 0 } } });
	});

	it("keeps its session in a file: a second run resumes it and continues the conversation", async () => {
		const path = join(sessions, "resumed.jsonl");
		const first = await runDemo({ PI_DEMO_SESSION: path });
		expect(first.stdout).toContain(`new session ${path}`);
		const second = await runDemo({ PI_DEMO_SESSION: path });
		expect(second.stdout).toContain(`resumed 4 messages from ${path}`);
		expect(second.stdout).toContain("3 + 4 = 7");
		const transcript = JSON.parse(second.stdout.slice(second.stdout.indexOf("[\n")));
		expect(transcript.map((m: { role: string }) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant", "user", "assistant", "toolResult", "assistant"]);
	}, 90_000); // two runs of the demo

	it("uses an OpenAI-compatible server given by PI_BASE_URL, with no key", async () => {
		server.enqueue(
			sseResponse(
				chatChunk({ role: "assistant", tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "calculator", arguments: "" } }] }) +
					chatChunk({ tool_calls: [{ index: 0, function: { arguments: '{"a":3,' } }] }) +
					chatChunk({ tool_calls: [{ index: 0, function: { arguments: '"b":4}' } }] }) +
					chatChunk({}, "tool_calls") +
					"data: [DONE]\n\n",
			),
			sseResponse(chatChunk({ role: "assistant", content: "3 + 4 = " }) + chatChunk({ content: "7" }) + chatChunk({}, "stop") + "data: [DONE]\n\n"),
		);
		const { stdout } = await runDemo({ PI_BASE_URL: `${server.url}/v1`, PI_MODEL: "llama3.1" });
		expect(stdout).toContain(`Model: llama3.1 at ${server.url}/v1`);
		expect(stdout).toContain("tool result: 7");
		expect(server.requests).toHaveLength(2);
		expect(server.requests[0]?.path).toBe("/v1/chat/completions");
		expect(server.requests[0]?.headers.authorization).toBeUndefined();
		const second = server.requests[1]?.json as { messages: { role: string; content: unknown }[] };
		expect(second.messages.at(-1)).toMatchObject({ role: "tool", content: "7" });
	});

	it("prints a failed reply's error on stderr, plain when not on a terminal, and exits 1", async () => {
		const failure = await runDemo({ PI_BASE_URL: await refusingBaseUrl(), PI_MODEL: "llama3.1" }).then(
			() => undefined,
			(error: { code?: number; stdout: string; stderr: string }) => error,
		);
		expect(failure?.code).toBe(1);
		const lines = failure?.stderr.trim().split("\n") ?? [];
		// Once as the reply ends, once more as the last thing after the transcript.
		expect(lines).toHaveLength(2);
		for (const line of lines) expect(line).toMatch(/^error: Network error/);
		expect(failure?.stderr).not.toContain("\x1b[");
		expect(failure?.stdout).not.toContain("\x1b[");
	});

	it("on a terminal the error is red, unless NO_COLOR is set", async () => {
		const baseUrl = await refusingBaseUrl();
		const coloured = await runDemoOnTerminal({ PI_BASE_URL: baseUrl, PI_MODEL: "llama3.1" });
		expect(coloured).toMatch(/\x1b\[31merror: Network error[^\n]*\x1b\[39m/);
		const plain = await runDemoOnTerminal({ PI_BASE_URL: baseUrl, PI_MODEL: "llama3.1", NO_COLOR: "1" });
		expect(plain).toMatch(/error: Network error/);
		expect(plain).not.toContain("\x1b[");
	});
});
