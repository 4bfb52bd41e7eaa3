import { loadFixture, sseResponse } from "@pi/ai/testing";
import { expect, it } from "vitest";
import { finished, runCli, spawnCli, waitForOutput } from "./helpers/run-cli.js";
import { messagesOf, sessionFiles } from "./helpers/session-file.js";
import { useCliTestContext } from "./helpers/cli-test-context.js";
import { bytesThroughEvent } from "./helpers/chat-stream.js";

const cli = useCliTestContext();

it("Ctrl-C (SIGINT) aborts the request at once, keeps the partial reply on stdout and in the session, exits 130, and -c goes on from it", async () => {
	const body = loadFixture("openai-completions", "length");
	// The server sends the stream up to "Alaska" and then holds the connection open, so only the
	// interrupt can end the run.
	cli.server.enqueue(sseResponse(body, { stallAfterBytes: bytesThroughEvent(body, "Alaska") }));
	const child = spawnCli(["--base-url", `${cli.server.url}/v1`, "-m", "m", "List the states"], { env: cli.home.env() });
	child.stdin.end();
	const result = finished(child);
	await waitForOutput(child.stdout, /Alaska/);
	child.kill("SIGINT");
	const { code, stdout, stderr } = await result;
	expect(code).toBe(130);
	expect(stdout).toMatch(/^Here is a list of all 50 U\.S\. states:\n\n1\. Alabama\n2\. Alaska/);
	expect(stderr).toContain("pi-ai: interrupted");

	// The partial reply is in the session, as an aborted message holding the text that arrived.
	const [file] = sessionFiles(cli.home.dataHome);
	const messages = messagesOf(file as string);
	expect(messages.map((message) => message.role)).toEqual(["user", "assistant"]);
	const partial = messages[1] ?? {};
	expect(partial.stopReason).toBe("aborted");
	expect(partial.content[0].text).toBe(stdout.trimEnd());

	// And the conversation goes on from there: the next prompt sends the partial reply back (to the
	// server --base-url names again: a recorded URL outside the catalog is not reused unconfirmed).
	cli.server.enqueue(sseResponse(loadFixture("openai-completions", "text-basic")));
	const next = await runCli(["-c", "--base-url", `${cli.server.url}/v1`, "Go on"], { env: cli.home.env() });
	expect(next.code).toBe(0);
	const sent = JSON.stringify((cli.server.requests[1]?.json as { messages: unknown[] }).messages);
	expect(sent).toContain("2. Alaska");
	expect(messagesOf(file as string).map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant"]);
});

it("Ctrl-C while waiting for the first byte exits 130 at once and keeps the prompt", async () => {
	cli.server.enqueue({ stallBeforeHeaders: true });
	const child = spawnCli(["--base-url", `${cli.server.url}/v1`, "-m", "m", "Hello?"], { env: cli.home.env() });
	child.stdin.end();
	const result = finished(child);
	// Wait until the request is at the server: the prompt is on disk by then.
	while (cli.server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
	child.kill("SIGINT");
	const { code } = await result;
	expect(code).toBe(130);
	const messages = messagesOf(sessionFiles(cli.home.dataHome)[0] as string);
	expect(messages[0]).toMatchObject({ role: "user" });
	expect(messages[1]).toMatchObject({ role: "assistant", stopReason: "aborted" });
});
