import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadFixture, type ReplayServer, sseResponse, startReplayServer } from "@pi/ai/testing";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { runCli, type TempHome, tempHome } from "./helpers/run-cli.js";
import { toolCallStream } from "./helpers/tool-call-stream.js";

let server: ReplayServer;
let home: TempHome;

beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());
beforeEach(() => {
	server.reset();
	home = tempHome();
});
afterEach(() => home.remove());

/** The tool-result messages a request sent back to the model. */
function toolResults(index: number): { role: string; content: unknown; tool_call_id?: string }[] {
	const body = server.requests[index]?.json as { messages: { role: string; content: unknown; tool_call_id?: string }[] };
	return body.messages.filter((message) => message.role === "tool");
}

it("--tool calculator runs the agent loop: the call and its result are shown, the result goes back to the model", async () => {
	server.enqueue(sseResponse(toolCallStream("calculator", { a: 1234, b: 5678, op: "*" })), sseResponse(loadFixture("openai-completions", "text-basic")));
	const result = await runCli(["--tool", "calculator", "--base-url", `${server.url}/v1`, "-m", "m", "What is 1234 * 5678?"], { env: home.env() });
	expect(result.code).toBe(0);
	expect(server.requests).toHaveLength(2);
	const tools = (server.requests[0]?.json as { tools: { function: { name: string } }[] }).tools;
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
	const module = join(home.dir, "my-tools.mjs");
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
	server.enqueue(sseResponse(loadFixture("openai-completions", "tool-call-single")), sseResponse(loadFixture("openai-completions", "text-basic")));
	const result = await runCli(["--tools", "./my-tools.mjs", "--base-url", `${server.url}/v1`, "-m", "m", "Capital of the UK?"], { env: home.env(), cwd: home.dir });
	expect(result.code).toBe(0);
	expect(toolResults(1)).toEqual([expect.objectContaining({ content: "London" })]);
	expect(result.stderr).toContain('→ get_capital {"country":"UK"}');
	expect(result.stdout).toBe("The capital of the UK is London.\n");
});

it("a failing tool shows its error and the model gets it as an error result", async () => {
	server.enqueue(sseResponse(toolCallStream("calculator", { a: 1, b: 0, op: "/" })), sseResponse(loadFixture("openai-completions", "text-basic")));
	const result = await runCli(["--tool", "calculator", "--base-url", `${server.url}/v1`, "-m", "m", "1/0?"], { env: home.env() });
	expect(result.code).toBe(0);
	expect(result.stderr).toContain("✗ division by zero");
	expect(JSON.stringify(toolResults(1))).toContain("division by zero");
});

it("--json prints the tool executions and the tool-result message", async () => {
	server.enqueue(sseResponse(toolCallStream("calculator", { a: 3, b: 4 })), sseResponse(loadFixture("openai-completions", "text-basic")));
	const result = await runCli(["--json", "--tool", "calculator", "--base-url", `${server.url}/v1`, "-m", "m", "3+4"], { env: home.env() });
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
	writeFileSync(join(home.dir, "empty.mjs"), "export const nothing = 1;\n");
	writeFileSync(join(home.dir, "broken.mjs"), "export default [{ name: 'x', description: 'y', parameters: {} }];\n");
	const empty = await runCli(["--tools", "./empty.mjs", "-m", "m", "--base-url", server.url, "Hi"], { env: home.env(), cwd: home.dir });
	expect(empty.code).toBe(2);
	expect(empty.stderr).toContain("./empty.mjs exports no tools");
	const broken = await runCli(["--tools", "./broken.mjs", "-m", "m", "--base-url", server.url, "Hi"], { env: home.env(), cwd: home.dir });
	expect(broken.code).toBe(2);
	expect(broken.stderr).toContain('./broken.mjs: tool 1 ("x"): execute must be a function');
	expect(server.requests).toHaveLength(0);
});
