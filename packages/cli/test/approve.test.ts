/**
 * `--approve`: each tool call waits for a y/n typed at the terminal (a real one, tmux); off a
 * terminal the calls are refused, saying why, and the model is told.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadFixture, sseResponse } from "@pi/ai/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { toolCallStream } from "./helpers/chat-stream.js";
import { useCliTestContext } from "./helpers/cli-test-context.js";
import { runCli } from "./helpers/run-cli.js";
import { installShim, Terminal } from "./helpers/tmux.js";

const cli = useCliTestContext();

/** The tool-result messages the second request sent back to the model. */
function toolResults(): { role: string; content: unknown; tool_call_id?: string }[] {
	const body = cli.server.requests[1]?.json as { messages: { role: string; content: unknown; tool_call_id?: string }[] };
	return body.messages.filter((message) => message.role === "tool");
}

function enqueueCalculatorTurn(): void {
	cli.server.enqueue(sseResponse(toolCallStream("calculator", { a: 1234, b: 5678, op: "*" })), sseResponse(loadFixture("openai-completions", "text-basic")));
}

it("off a terminal, --approve refuses each call, says why on stderr, and the model gets the refusal", async () => {
	enqueueCalculatorTurn();
	const result = await runCli(["--tool", "calculator", "--approve", "--base-url", `${cli.server.url}/v1`, "-m", "m", "What is 1234 * 5678?"], { env: cli.home.env() });
	expect(result.code).toBe(0);
	expect(result.stderr).toContain("pi-ai: refused calculator: it needs approval, and standard input is not a terminal to ask on");
	expect(result.stderr).not.toContain("7006652");
	expect(toolResults()).toEqual([
		expect.objectContaining({ tool_call_id: "call_1", content: 'Tool call "calculator" was rejected (not approved: pi-ai is not on a terminal, so nobody could be asked).' }),
	]);
	expect(result.stdout).toBe("The capital of the UK is London.\n");
});

it("--json shows the approval request as a line of its own, before the refused call's events", async () => {
	enqueueCalculatorTurn();
	const result = await runCli(["--tool", "calculator", "--approve", "--json", "--base-url", `${cli.server.url}/v1`, "-m", "m", "What is 1234 * 5678?"], { env: cli.home.env() });
	expect(result.code).toBe(0);
	const lines = result.stdout.trim().split("\n").map((line) => JSON.parse(line) as { type: string; toolCallId?: string; isError?: boolean });
	const request = lines.findIndex((line) => line.type === "tool_approval_request");
	expect(lines[request]).toEqual({ type: "tool_approval_request", toolCallId: "call_1", toolName: "calculator", args: { a: 1234, b: 5678, op: "*" } });
	const end = lines.findIndex((line) => line.type === "tool_execution_end");
	expect(end).toBeGreaterThan(request);
	expect(lines[end]).toMatchObject({ toolCallId: "call_1", isError: true });
});

it("without --approve the same call runs at once", async () => {
	enqueueCalculatorTurn();
	const result = await runCli(["--tool", "calculator", "--base-url", `${cli.server.url}/v1`, "-m", "m", "What is 1234 * 5678?"], { env: cli.home.env() });
	expect(result.code).toBe(0);
	expect(toolResults()).toEqual([expect.objectContaining({ content: "7006652" })]);
});

it("a --tools module's tool with needsApproval is refused off a terminal even without --approve", async () => {
	writeFileSync(
		join(cli.home.dir, "risky.mjs"),
		`export default [{
			name: "calculator",
			description: "Pretends to calculate",
			parameters: { type: "object", properties: {} },
			needsApproval: true,
			async execute() { throw new Error("must not run"); },
		}];\n`,
	);
	enqueueCalculatorTurn();
	const result = await runCli(["--tools", "./risky.mjs", "--base-url", `${cli.server.url}/v1`, "-m", "m", "go"], { env: cli.home.env(), cwd: cli.home.dir });
	expect(result.code).toBe(0);
	expect(result.stderr).toContain("pi-ai: refused calculator");
	expect(result.stderr).not.toContain("must not run");
	expect(toolResults()).toEqual([expect.objectContaining({ content: expect.stringContaining("not on a terminal") })]);
});

describe("on a terminal", () => {
	let terminal: Terminal;
	let terminals = 0;
	beforeEach(async () => {
		const bin = installShim(join(cli.home.dir, "bin"));
		// A fresh tmux server per test: reusing a name races the previous server's shutdown.
		terminal = await Terminal.start(`pi-cli-approve-${process.pid}-${++terminals}`, { PATH: `${bin}:/usr/bin:/bin`, HOME: cli.home.dir, XDG_CONFIG_HOME: cli.home.configHome, XDG_DATA_HOME: cli.home.dataHome, LANG: "C.UTF-8" });
	});
	afterEach(() => terminal.close());

	for (const [answer, expected] of [
		["y", "7006652"],
		["n", 'Tool call "calculator" was rejected (the user said no).'],
	] as const) {
		it(`asks y/n before the call runs; "${answer}" ${answer === "y" ? "runs it" : "refuses it"} and the model goes on`, async () => {
			enqueueCalculatorTurn();
			await terminal.type(`pi-ai --tool calculator --approve --base-url ${cli.server.url}/v1 -m m "What is 1234 * 5678?"`);
			await terminal.press("Enter");
			const asking = await terminal.waitFor((screen) => screen.includes("[y/N]"));
			expect(asking).toContain('? run calculator {"a":1234,"b":5678,"op":"*"} [y/N]');
			expect(cli.server.requests).toHaveLength(1);
			await terminal.type(answer);
			await terminal.press("Enter");
			const done = await terminal.waitFor((screen) => screen.includes("openai-compatible/m · "));
			expect(done).toContain("The capital of the UK is London.");
			expect(toolResults()).toEqual([expect.objectContaining({ tool_call_id: "call_1", content: expected })]);
		});
	}

	it("Ctrl-C at the question exits with 130 and sends nothing more to the model", async () => {
		enqueueCalculatorTurn();
		await terminal.type(`pi-ai --tool calculator --approve --base-url ${cli.server.url}/v1 -m m "What is 1234 * 5678?"; echo "exit=$?"`);
		await terminal.press("Enter");
		await terminal.waitFor((screen) => screen.includes("[y/N]"));
		await terminal.press("C-c");
		const done = await terminal.waitFor((screen) => /^exit=\d+/m.test(screen));
		expect(done).toMatch(/^exit=130$/m);
		expect(done).toContain("pi-ai: interrupted");
		expect(cli.server.requests).toHaveLength(1);
	});
});
