import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadFixture, sseResponse } from "@pi/ai/testing";
import { expect, it } from "vitest";
import { runCli } from "./helpers/run-cli.js";
import { useCliTestContext } from "./helpers/cli-test-context.js";
import { toolCallStream } from "./helpers/chat-stream.js";

const cli = useCliTestContext();

/** The tool-result messages a request sent back to the model. */
function toolResults(index: number): { role: string; content: unknown; tool_call_id?: string }[] {
	const body = cli.server.requests[index]?.json as { messages: { role: string; content: unknown; tool_call_id?: string }[] };
	return body.messages.filter((message) => message.role === "tool");
}

it("--tool calculator runs the agent loop: the call and its result are shown, the result goes back to the model", async () => {
	cli.server.enqueue(sseResponse(toolCallStream("calculator", { a: 1234, b: 5678, op: "*" })), sseResponse(loadFixture("openai-completions", "text-basic")));
	const result = await runCli(["--tool", "calculator", "--base-url", `${cli.server.url}/v1`, "-m", "m", "What is 1234 * 5678?"], { env: cli.home.env() });
	expect(result.code).toBe(0);
	expect(cli.server.requests).toHaveLength(2);
	const tools = (cli.server.requests[0]?.json as { tools: { function: { name: string } }[] }).tools;
	expect(tools.map((tool) => tool.function.name)).toEqual(["calculator"]);
	expect(toolResults(1)).toEqual([expect.objectContaining({ tool_call_id: "call_1", content: "7006652" })]);
	// Shown on stderr as it happens, in order: the call with its arguments, then its result.
	const call = result.stderr.indexOf('→ calculator {"a":1234,"b":5678,"op":"*"}');
	const answer = result.stderr.indexOf("← 7006652");
	expect(call).toBeGreaterThanOrEqual(0);
	expect(answer).toBeGreaterThan(call);
	expect(result.stdout).toBe("The capital of the UK is London.\n");
	// The usage line sums both model calls.
	expect(result.stderr).toMatch(/openai-compatible\/m · \d+ in · \d+ out/);
});

it("--tools FILE loads the user's own tools and runs them on a recorded tool call", async () => {
	const module = join(cli.home.dir, "my-tools.mjs");
	writeFileSync(
		module,
		`export default [{
			name: "get_capital",
			description: "The capital of a country",
			parameters: { type: "object", properties: { country: { type: "string" } }, required: ["country"] },
			async execute(_id, { country }) {
				return { content: [{ type: "text", text: country === "UK" ? "London" : "unknown" }], details: {} };
			},
		}];\n`,
	);
	cli.server.enqueue(sseResponse(loadFixture("openai-completions", "tool-call-single")), sseResponse(loadFixture("openai-completions", "text-basic")));
	const result = await runCli(["--tools", "./my-tools.mjs", "--base-url", `${cli.server.url}/v1`, "-m", "m", "Capital of the UK?"], { env: cli.home.env(), cwd: cli.home.dir });
	expect(result.code).toBe(0);
	expect(toolResults(1)).toEqual([expect.objectContaining({ content: "London" })]);
	expect(result.stderr).toContain('→ get_capital {"country":"UK"}');
	expect(result.stdout).toBe("The capital of the UK is London.\n");
});

it("a failing tool shows its error and the model gets it as an error result", async () => {
	cli.server.enqueue(sseResponse(toolCallStream("calculator", { a: 1, b: 0, op: "/" })), sseResponse(loadFixture("openai-completions", "text-basic")));
	const result = await runCli(["--tool", "calculator", "--base-url", `${cli.server.url}/v1`, "-m", "m", "1/0?"], { env: cli.home.env() });
	expect(result.code).toBe(0);
	expect(result.stderr).toContain("✗ division by zero");
	expect(JSON.stringify(toolResults(1))).toContain("division by zero");
});

it("--json prints the tool executions and the tool-result message", async () => {
	cli.server.enqueue(sseResponse(toolCallStream("calculator", { a: 3, b: 4 })), sseResponse(loadFixture("openai-completions", "text-basic")));
	const result = await runCli(["--json", "--tool", "calculator", "--base-url", `${cli.server.url}/v1`, "-m", "m", "3+4"], { env: cli.home.env() });
	expect(result.code).toBe(0);
	const lines = result.stdout.trimEnd().split("\n").map((line) => JSON.parse(line));
	const start = lines.findIndex((line) => line.type === "tool_execution_start");
	const end = lines.findIndex((line) => line.type === "tool_execution_end");
	expect(lines[start]).toMatchObject({ toolName: "calculator", args: { a: 3, b: 4 } });
	expect(lines[end]).toMatchObject({ toolName: "calculator", isError: false, result: { content: [{ type: "text", text: "7" }] } });
	expect(end).toBeGreaterThan(start);
	expect(lines.find((line) => line.type === "message_end" && line.message.role === "toolResult")).toBeDefined();
	expect(lines.at(-1).type).toBe("result");
});

it("a tools module without tools is a usage error naming the file", async () => {
	writeFileSync(join(cli.home.dir, "empty.mjs"), "export const nothing = 1;\n");
	writeFileSync(join(cli.home.dir, "broken.mjs"), "export default [{ name: 'x', description: 'y', parameters: {} }];\n");
	const empty = await runCli(["--tools", "./empty.mjs", "-m", "m", "--base-url", cli.server.url, "Hi"], { env: cli.home.env(), cwd: cli.home.dir });
	expect(empty.code).toBe(2);
	expect(empty.stderr).toContain("./empty.mjs exports no tools");
	const broken = await runCli(["--tools", "./broken.mjs", "-m", "m", "--base-url", cli.server.url, "Hi"], { env: cli.home.env(), cwd: cli.home.dir });
	expect(broken.code).toBe(2);
	expect(broken.stderr).toContain('./broken.mjs: tool 1 ("x"): execute must be a function');
	expect(cli.server.requests).toHaveLength(0);
});

it("a tools module whose export is an empty list is refused too, naming the file", async () => {
	writeFileSync(join(cli.home.dir, "none.mjs"), "export default [];\n");
	writeFileSync(join(cli.home.dir, "none-named.mjs"), "export const tools = [];\n");
	for (const file of ["./none.mjs", "./none-named.mjs"]) {
		const result = await runCli(["--tools", file, "-m", "m", "--base-url", cli.server.url, "Hi"], { env: cli.home.env(), cwd: cli.home.dir });
		expect(result.code).toBe(2);
		expect(result.stderr).toContain(`${file} exports no tools`);
	}
	expect(cli.server.requests).toHaveLength(0);
});

it("a .ts tools module loads where Node strips types; elsewhere the error names the Node version needed", async () => {
	writeFileSync(
		join(cli.home.dir, "typed-tools.ts"),
		`const tools: { name: string; description: string; parameters: object; execute: () => Promise<object> }[] = [
			{ name: "noop", description: "Does nothing", parameters: { type: "object", properties: {} }, execute: async () => ({ content: [], details: {} }) },
		];
		export default tools;\n`,
	);
	const stripsTypes = Boolean((process.features as { typescript?: unknown }).typescript);
	if (!stripsTypes) {
		const result = await runCli(["--tools", "./typed-tools.ts", "-m", "m", "--base-url", cli.server.url, "Hi"], { env: cli.home.env(), cwd: cli.home.dir });
		expect(result.code).toBe(2);
		expect(result.stderr).toBe(
			`pi-ai: cannot load tools from ./typed-tools.ts: Node ${process.version} cannot load TypeScript; use Node 22.18 or later (or 22.6+ with --experimental-strip-types), or compile the module to .js\n`,
		);
		expect(result.stderr).not.toContain("Unknown file extension");
		expect(cli.server.requests).toHaveLength(0);
	} else {
		cli.server.enqueue(sseResponse(loadFixture("openai-completions", "text-basic")));
		const result = await runCli(["--tools", "./typed-tools.ts", "-m", "m", "--base-url", `${cli.server.url}/v1`, "Hi"], { env: cli.home.env(), cwd: cli.home.dir });
		expect(result.code).toBe(0);
		expect((cli.server.requests[0]?.json as { tools: { function: { name: string } }[] }).tools[0]?.function.name).toBe("noop");
	}
});
