/**
 * Stopping and standard input (issue 25 items 16 and 17): SIGTERM and SIGHUP are handled as
 * Ctrl-C is (the partial reply kept, the lock released), a reader that goes away (EPIPE) is a
 * quiet exit, and `--no-stdin` runs with standard input left open and unread.
 */
import { existsSync } from "node:fs";
import { loadFixture, sseResponse } from "@pi/ai/testing";
import { describe, expect, it } from "vitest";
import { useCliTestContext } from "./helpers/cli-test-context.js";
import { finished, runCli, spawnCli, waitForOutput } from "./helpers/run-cli.js";
import { messagesOf, sessionFiles } from "./helpers/session-file.js";
import { bytesThroughEvent } from "./helpers/chat-stream.js";

const cli = useCliTestContext();

describe("SIGTERM and SIGHUP", () => {
	for (const [signal, code] of [["SIGTERM", 143], ["SIGHUP", 129]] as const) {
		it(`${signal} aborts at once, keeps the partial reply, releases the lock and exits ${code}`, async () => {
			const body = loadFixture("openai-completions", "length");
			cli.server.enqueue(sseResponse(body, { stallAfterBytes: bytesThroughEvent(body, "Alaska") }));
			const child = spawnCli(["--base-url", `${cli.server.url}/v1`, "-m", "m", "List the states"], { env: cli.home.env() });
			child.stdin.end();
			const result = finished(child);
			await waitForOutput(child.stdout, /Alaska/);
			child.kill(signal);
			const { code: exitCode, signal: killedBy, stdout, stderr } = await result;
			expect(killedBy).toBeNull();
			expect(exitCode).toBe(code);
			expect(stderr).toContain("pi-ai: interrupted");
			const file = sessionFiles(cli.home.dataHome)[0] as string;
			expect(existsSync(`${file}.lock`)).toBe(false);
			const messages = messagesOf(file);
			expect(messages[1]).toMatchObject({ role: "assistant", stopReason: "aborted" });
			expect(messages[1]?.content[0].text).toBe(stdout.trimEnd());
		});
	}
});

describe("a closed standard output (pi-ai … | head -c 12)", () => {
	it("ends the run quietly: no stack trace, the partial reply kept, exit 141", async () => {
		const body = loadFixture("openai-completions", "length");
		// Slow enough that deltas keep coming after the reader has gone.
		cli.server.enqueue(sseResponse(body, { chunking: { minChunkBytes: 64, maxChunkBytes: 64, delayMs: 15 } }));
		const child = spawnCli(["--base-url", `${cli.server.url}/v1`, "-m", "m", "List the states"], { env: cli.home.env() });
		child.stdin.end();
		let stderr = "";
		child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
		const closed = new Promise<number | null>((resolve) => child.on("close", (exitCode) => resolve(exitCode)));
		await waitForOutput(child.stdout, /Alabama/);
		child.stdout.destroy();
		const exitCode = await closed;
		expect(stderr).not.toMatch(/EPIPE|^\s+at /m);
		expect(stderr).not.toContain("interrupted");
		expect(exitCode).toBe(141);
		const messages = messagesOf(sessionFiles(cli.home.dataHome)[0] as string);
		expect(messages[1]).toMatchObject({ role: "assistant", stopReason: "aborted" });
	});
});

describe("standard input", () => {
	it("--no-stdin runs with stdin open and never closed, and leaves it unread", async () => {
		cli.server.enqueue(sseResponse(loadFixture("openai-completions", "text-basic")));
		const child = spawnCli(["--no-stdin", "--base-url", `${cli.server.url}/v1`, "-m", "m", "Hi"], { env: cli.home.env() });
		child.stdin.write("the loop's next line\n"); // and stdin stays open, as in a while-read loop
		const result = await finished(child);
		expect(result.code).toBe(0);
		expect(JSON.stringify(cli.server.requests[0]?.json)).not.toContain("the loop's next line");
	});

	it("- reads standard input (joined before the arguments); --help documents the rule", async () => {
		cli.server.enqueue(sseResponse(loadFixture("openai-completions", "text-basic")));
		const result = await runCli(["--base-url", `${cli.server.url}/v1`, "-m", "m", "-", "Summarise this."], { env: cli.home.env(), input: "notes\n" });
		expect(result.code).toBe(0);
		expect(JSON.stringify(cli.server.requests[0]?.json)).toContain("notes\\n\\nSummarise this.");
		const help = await runCli(["--help"], { env: cli.home.env() });
		expect(help.stdout).toContain("--no-stdin     do not read standard input");
		expect(help.stdout).toContain('In a "while read" loop, or when the pipe stays open,\n  pass --no-stdin');
	});
});
