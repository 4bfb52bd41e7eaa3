/**
 * pi-ai as a person uses it: in a real terminal (tmux), commands typed with send-keys, the screen
 * read back with capture-pane (-e keeps the escape sequences, so dimming is visible).
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { loadFixture, sseResponse } from "@pi/ai/testing";
import { afterEach, beforeEach, expect, it } from "vitest";
import { expectedReply, textOf, thinkingOf } from "./helpers/expected-reply.js";
import { useCliTestContext } from "./helpers/cli-test-context.js";
import { messagesOf, sessionFiles } from "./helpers/session-file.js";
import { installShim, Terminal } from "./helpers/tmux.js";
import { bytesThroughEvent, chatReply } from "./helpers/chat-stream.js";

const SPINNER_FRAMES = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;
const DIM = "\x1b[2m";

const cli = useCliTestContext();
let terminal: Terminal;

beforeEach(async () => {
	const home = cli.home;
	const bin = installShim(join(home.dir, "bin"));
	terminal = await Terminal.start(`pi-cli-test-${process.pid}`, {
		PATH: `${bin}:/usr/bin:/bin`,
		HOME: home.dir,
		XDG_CONFIG_HOME: home.configHome,
		XDG_DATA_HOME: home.dataHome,
		LANG: "C.UTF-8",
		ANTHROPIC_API_KEY: "test-key",
	});
});
afterEach(async () => {
	await terminal.close();
});

it("shows a spinner while it waits, then streams dimmed thinking and the answer, and the spinner is gone", async () => {
	const capture = loadFixture("anthropic-messages", "thinking-signature");
	const expected = await expectedReply("anthropic", "claude-haiku-4-5", capture);
	const thinking = thinkingOf(expected);
	const answer = textOf(expected);
	// An SSE comment before the first event keeps the first token back while the bytes trickle
	// in (comments are valid SSE and carry nothing), then the whole capture streams slowly.
	const body = Buffer.concat([Buffer.from(`: ${"waiting ".repeat(600)}\n\n`), Buffer.from(capture)]);
	cli.server.enqueue(sseResponse(body, { chunking: { minChunkBytes: 160, maxChunkBytes: 160, delayMs: 20 } }));

	await terminal.type(`pi-ai -m anthropic/claude-haiku-4-5:high --base-url ${cli.server.url} "How do I cross the street?"`);
	await terminal.press("Enter");

	// 1. The spinner, with the model's name, before any token.
	const waiting = await terminal.waitFor((screen) => SPINNER_FRAMES.test(screen));
	expect(waiting).toContain("anthropic/claude-haiku-4-5");
	expect(waiting).not.toContain(thinking.slice(0, 30));

	// 2. Streaming: part of the thinking is on screen while the answer has not come yet.
	const midway = await terminal.waitFor((screen) => screen.includes(thinking.slice(0, 30)));
	expect(midway).not.toContain(answer.slice(0, 60));
	expect(midway).not.toMatch(SPINNER_FRAMES);

	// 3. The end: the thinking dimmed, the answer in normal intensity after it, then the usage line.
	const done = await terminal.waitFor((screen) => screen.includes("anthropic/claude-haiku-4-5 · "), { escapes: true });
	const thinkingAt = done.indexOf(`${DIM}${thinking.slice(0, 30)}`);
	const answerAt = done.indexOf(answer.split("\n")[0] as string);
	expect(thinkingAt).toBeGreaterThanOrEqual(0);
	expect(answerAt).toBeGreaterThan(thinkingAt);
	// Between the thinking and the answer the dimming is reset: the answer is in normal intensity.
	const between = done.slice(thinkingAt, answerAt);
	expect(between.lastIndexOf("\x1b[0m")).toBeGreaterThan(between.lastIndexOf(DIM));
	const plain = await terminal.screen();
	expect(plain).toContain(answer.split("\n")[0]);
	expect(plain.indexOf(answer.split("\n")[0] as string)).toBeGreaterThan(plain.indexOf(thinking.slice(0, 30)));
	expect(plain).not.toMatch(SPINNER_FRAMES);
});

it("NO_COLOR keeps the terminal free of escapes, and --no-thinking hides the thinking", async () => {
	const capture = loadFixture("anthropic-messages", "thinking-signature");
	const expected = await expectedReply("anthropic", "claude-haiku-4-5", capture);
	cli.server.enqueue(sseResponse(capture), sseResponse(capture));
	await terminal.type(`NO_COLOR=1 pi-ai -m anthropic/claude-haiku-4-5 --base-url ${cli.server.url} "Hi"; echo "exit=$?"`);
	await terminal.press("Enter");
	const uncoloured = await terminal.waitFor((screen) => screen.includes("exit=0"), { escapes: true });
	expect(uncoloured).toContain(thinkingOf(expected).slice(0, 30));
	expect(uncoloured).not.toContain(DIM);

	// Its own marker: the first run's "exit=0" may still be on screen before `clear` runs.
	await terminal.type(`clear; pi-ai --no-thinking -m anthropic/claude-haiku-4-5 --base-url ${cli.server.url} "Hi"; echo "hidden=$?"`);
	await terminal.press("Enter");
	const hidden = await terminal.waitFor((screen) => /hidden=\d/.test(screen));
	expect(hidden).toContain("hidden=0");
	expect(hidden).toContain(textOf(expected).split("\n")[0]);
	expect(hidden).not.toContain(thinkingOf(expected).slice(0, 30));
});

it("Ctrl-C stops a streaming reply at once: the partial text stays on screen and in the session, exit 130", async () => {
	const capture = loadFixture("openai-completions", "length");
	cli.server.enqueue(sseResponse(capture, { stallAfterBytes: bytesThroughEvent(capture, "Alaska") }));
	await terminal.type(`pi-ai --base-url ${cli.server.url}/v1 -m local "List the states"; echo "exit=$?"`);
	await terminal.press("Enter");
	await terminal.waitFor((screen) => screen.includes("2. Alaska"));
	await terminal.press("C-c");
	const after = await terminal.waitFor((screen) => /exit=\d+/.test(screen));
	expect(after).toContain("exit=130");
	expect(after).toContain("pi-ai: interrupted");
	const messages = messagesOf(sessionFiles(cli.home.dataHome)[0] as string);
	expect(messages[1]).toMatchObject({ role: "assistant", stopReason: "aborted" });
	expect(messages[1]?.content[0].text).toContain("2. Alaska");
});

it("Ctrl-C while the spinner waits for the first token ends it too", async () => {
	cli.server.enqueue({ stallBeforeHeaders: true });
	await terminal.type(`pi-ai --base-url ${cli.server.url}/v1 -m local "Hello?"; echo "exit=$?"`);
	await terminal.press("Enter");
	await terminal.waitFor((screen) => SPINNER_FRAMES.test(screen));
	await terminal.press("C-c");
	const after = await terminal.waitFor((screen) => /exit=\d+/.test(screen));
	expect(after).toContain("exit=130");
	expect(after).not.toMatch(SPINNER_FRAMES);
});

it("keys set reads the key without echoing it and stores it with mode 600", async () => {
	await terminal.type("pi-ai keys set openai; echo \"exit=$?\"");
	await terminal.press("Enter");
	await terminal.waitFor((screen) => screen.includes("API key for openai (input hidden):"));
	await terminal.type("sk-typed-secret-42");
	const typing = await terminal.screen();
	expect(typing).not.toContain("sk-typed-secret-42");
	await terminal.press("Enter");
	const after = await terminal.waitFor((screen) => /exit=\d+/.test(screen)); // a digit: the typed command line itself holds "exit=$?"
	expect(after).toContain("exit=0");
	expect(after).not.toContain("sk-typed-secret-42");
	const keys = join(cli.home.configHome, "pi-ai", "keys.json");
	expect(JSON.parse(readFileSync(keys, "utf8"))).toEqual({ openai: "sk-typed-secret-42" });
	expect(statSync(keys).mode & 0o777).toBe(0o600);
});

it("a reply's escape sequences are shown, not obeyed: the window title stays, the text is visible", async () => {
	const before = await terminal.title();
	cli.server.enqueue(sseResponse(chatReply("Sure.\u001b]2;pwned\u0007 \u001b[8mhidden\u001b[0m done")));
	await terminal.type(`pi-ai --base-url ${cli.server.url}/v1 -m local "Hi"; echo "exit=$?"`);
	await terminal.press("Enter");
	const screen = await terminal.waitFor((text) => /exit=\d+/.test(text));
	expect(screen).toContain("exit=0");
	expect(screen).toContain("Sure.\\x1b]2;pwned\\x07 \\x1b[8mhidden\\x1b[0m done");
	expect(await terminal.title()).toBe(before);
	expect(await terminal.title()).not.toBe("pwned");
});
