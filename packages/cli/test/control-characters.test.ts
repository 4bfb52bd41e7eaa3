/**
 * No escape sequence from a model or a session file reaches the terminal (issue 25 item 15): C0
 * and C1 control characters other than newline and tab are shown escaped on a terminal, and in
 * `show` and `sessions` always; a pipe gets the reply's bytes as they came.
 */
import type { AgentEvent } from "@pi/agent-core";
import { sseResponse } from "@pi/ai/testing";
import { describe, expect, it } from "vitest";
import { ReplyPrinter } from "../src/reply-printer.js";
import { escapeControlCharacters } from "../src/terminal/escape-control-characters.js";
import type { OutputStream } from "../src/terminal/style.js";
import { useCliTestContext } from "./helpers/cli-test-context.js";
import { runCli } from "./helpers/run-cli.js";
import { chatReply } from "./helpers/chat-stream.js";

const cli = useCliTestContext();

// A window title (OSC 0), a clipboard write (OSC 52), a cursor move, a C1 CSI, a lone CR, DEL.
const HOSTILE = "Hi\u001b]0;pwned\u0007 \u001b]52;c;ZWNobyBoaQ==\u0007 \u001b[2A\u009b31m back\rover\u007f\ttab\nline";
const ESCAPED = "Hi\\x1b]0;pwned\\x07 \\x1b]52;c;ZWNobyBoaQ==\\x07 \\x1b[2A\\x9b31m back\\x0dover\\x7f\ttab\nline";

/** A stream that records what was written, a terminal or not. */
function capture(isTTY: boolean): OutputStream & { text: string } {
	const stream = { isTTY, text: "", write: (chunk: string) => ((stream.text += chunk), true) };
	return stream;
}

describe("escapeControlCharacters", () => {
	it("escapes C0 (but newline and tab), DEL, C1 and a CR not before a newline", () => {
		expect(escapeControlCharacters(HOSTILE)).toBe(ESCAPED);
		expect(escapeControlCharacters("a\r\nb\u0000")).toBe("a\r\nb\\x00");
		expect(escapeControlCharacters("héllo — 你好 🙂")).toBe("héllo — 你好 🙂");
	});
});

describe("the reply printer", () => {
	const delta = (text: string, type: "text_delta" | "thinking_delta" = "text_delta") =>
		({ type: "message_update", message: {}, assistantMessageEvent: { type, contentIndex: 0, delta: text, partial: {} } }) as unknown as AgentEvent;

	it("escapes model text and thinking on a terminal", () => {
		const stdout = capture(true);
		const stderr = capture(true);
		const printer = new ReplyPrinter({ stdout, stderr, showThinking: true, label: "m", env: { NO_COLOR: "1" } });
		printer.handle(delta("\u001b]0;title\u0007", "thinking_delta"));
		printer.handle(delta(HOSTILE));
		printer.finish();
		expect(stdout.text).toBe(`${ESCAPED}\n`);
		expect(stderr.text).toContain("\\x1b]0;title\\x07");
		expect(stdout.text + stderr.text).not.toMatch(/[\u001b\u0007\u009b]/);
	});

	it("writes the bytes as they came to a pipe", () => {
		const stdout = capture(false);
		const printer = new ReplyPrinter({ stdout, stderr: capture(false), showThinking: true, label: "m" });
		printer.handle(delta(HOSTILE));
		printer.finish();
		expect(stdout.text).toBe(`${HOSTILE}\n`);
	});
});

describe("show and sessions", () => {
	it("print a session's control characters escaped, even to a pipe", async () => {
		cli.server.enqueue(sseResponse(chatReply(HOSTILE)));
		const prompt = await runCli(["--base-url", `${cli.server.url}/v1`, "-m", "m", "first \u001b]0;x\u0007 line"], { env: cli.home.env() });
		expect(prompt.code).toBe(0);
		expect(prompt.stdout).toBe(`${HOSTILE}\n`); // a pipe: as it came

		const list = await runCli(["sessions"], { env: cli.home.env() });
		expect(list.stdout).toContain("first \\x1b]0;x\\x07 line");
		expect(list.stdout).not.toMatch(/[\u001b\u0007]/);
		const id = list.stdout.split("\n")[1]?.split(/\s+/)[0] as string;
		const shown = await runCli(["show", id], { env: cli.home.env() });
		expect(shown.stdout).toContain(ESCAPED);
		expect(shown.stdout).not.toMatch(/[\u001b\u0007\u009b\u007f]/);
	});
});
