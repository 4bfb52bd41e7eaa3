import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type ReplayServer, sseResponse, startReplayServer } from "@pi/ai/testing";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * examples/migration/: code from the reference's READMEs with only the package names changed.
 * Each example is checked to be exactly that README block, to type-check against ours with no
 * error the reference does not also report, and to run offline (against the replay server
 * where it would call a provider, through migration/replay-setup.ts).
 */
const run = promisify(execFile);
const root = fileURLToPath(new URL("..", import.meta.url));
const migration = join(root, "migration");

const EXAMPLES = [
	{ file: "ai-quick-start.ts", readme: "@mariozechner/pi-ai", heading: "## Quick Start" },
	{ file: "ai-faux-provider.ts", readme: "@mariozechner/pi-ai", heading: "### Faux provider for tests" },
	{ file: "agent-quick-start.ts", readme: "@mariozechner/pi-agent-core", heading: "## Quick Start" },
] as const;

const toOurs = (code: string) => code.replaceAll("@mariozechner/pi-agent-core", "@pi/agent-core").replaceAll("@mariozechner/pi-ai", "@pi/ai");
const toReference = (code: string) => code.replaceAll("@pi/agent-core", "@mariozechner/pi-agent-core").replaceAll("@pi/ai", "@mariozechner/pi-ai");
/** The example's code: the file without its one-line provenance comment. */
const codeOf = (file: string) => readFileSync(join(migration, file), "utf8").split("\n").slice(1).join("\n");

function readmeBlock(packageName: string, heading: string): string {
	const readme = readFileSync(join(root, "node_modules", packageName, "README.md"), "utf8");
	const after = readme.slice(readme.indexOf(heading));
	const match = /```typescript\n([\s\S]*?)```/.exec(after);
	if (!match?.[1]) throw new Error(`no typescript block under "${heading}" in ${packageName}'s README`);
	return match[1];
}

// Responses of the scripted provider calls, in the order the examples make them.
const responsesEvent = (type: string, body: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...body })}\n\n`;
const responsesDone = (id: string) => responsesEvent("response.completed", { response: { id, status: "completed", usage: { input_tokens: 12, output_tokens: 6 } } });
const toolCallReply =
	responsesEvent("response.output_item.added", { output_index: 0, item: { id: "fc_1", type: "function_call", call_id: "call_1", name: "get_time", arguments: "" } }) +
	responsesEvent("response.function_call_arguments.delta", { output_index: 0, item_id: "fc_1", delta: '{"timezone":"UTC"}' }) +
	responsesEvent("response.output_item.done", { output_index: 0, item: { id: "fc_1", type: "function_call", call_id: "call_1", name: "get_time", arguments: '{"timezone":"UTC"}' } }) +
	responsesDone("resp_1");
const textReply = (id: string, text: string) =>
	responsesEvent("response.output_item.added", { output_index: 0, item: { id: `msg_${id}`, type: "message", role: "assistant", content: [] } }) +
	responsesEvent("response.output_text.delta", { output_index: 0, item_id: `msg_${id}`, content_index: 0, delta: text }) +
	responsesEvent("response.output_item.done", { output_index: 0, item: { id: `msg_${id}`, type: "message", role: "assistant", content: [{ type: "output_text", text }] } }) +
	responsesDone(`resp_${id}`);
const anthropicReply = (text: string) =>
	[
		["message_start", { type: "message_start", message: { id: "msg_a1", usage: { input_tokens: 9, output_tokens: 1 } } }],
		["content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }],
		["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } }],
		["content_block_stop", { type: "content_block_stop", index: 0 }],
		["message_delta", { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 4 } }],
		["message_stop", { type: "message_stop" }],
	]
		.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
		.join("");

let server: ReplayServer;
const scratch = mkdtempSync(join(root, ".migration-"));
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(async () => {
	await server.close();
	rmSync(scratch, { recursive: true, force: true });
});

async function runExample(file: string): Promise<{ stdout: string; stderr: string }> {
	return run(process.execPath, ["--import", "tsx", "--conditions=development", "--import", join(migration, "replay-setup.ts"), join(migration, file)], {
		cwd: root,
		timeout: 110_000,
		env: { ...process.env, MIGRATION_REPLAY_URL: server.url, OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "" },
	});
}

describe("examples/migration", () => {
	it.each(EXAMPLES)("$file is the README block with only the package names changed", ({ file, readme, heading }) => {
		expect(codeOf(file)).toBe(toOurs(readmeBlock(readme, heading)));
	});

	// Slow on a loaded machine: one compiler program over six files, and child processes.
	it("type-checks against ours with no error the reference does not report too", { timeout: 240_000 }, () => {
		// Each example twice, once per package set, in one program (building it is the slow part).
		const files: string[] = [];
		for (const { file } of EXAMPLES) {
			const ours = join(scratch, `ours-${file}`);
			const reference = join(scratch, `reference-${file}`);
			writeFileSync(ours, codeOf(file));
			writeFileSync(reference, toReference(codeOf(file)));
			files.push(ours, reference);
		}
		const options = { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, strict: true, skipLibCheck: true, noEmit: true, types: ["node"], lib: ["lib.es2023.d.ts", "lib.dom.d.ts"] };
		const program = ts.createProgram(files, options);
		const errors = (path: string) =>
			ts.getPreEmitDiagnostics(program, program.getSourceFile(path)).map((d) => `${d.code}@${d.file ? d.file.getLineAndCharacterOfPosition(d.start ?? 0).line : -1}`);
		for (const { file } of EXAMPLES) {
			const ours = errors(join(scratch, `ours-${file}`));
			const reference = errors(join(scratch, `reference-${file}`));
			expect({ file, extra: ours.filter((error) => !reference.includes(error)) }).toEqual({ file, extra: [] });
		}
	});

	it("ai-quick-start runs offline: stream with a tool call, then complete twice", { timeout: 120_000 }, async () => {
		server.reset();
		server.enqueue(sseResponse(toolCallReply), sseResponse(textReply("2", "It is noon UTC.")), sseResponse(textReply("3", "Still noon.")));
		const { stdout, stderr } = await runExample("ai-quick-start.ts");
		expect(stderr).toBe("");
		expect(stdout).toContain("Starting with gpt-4o-mini");
		expect(stdout).toContain("Tool called: get_time");
		expect(stdout).toContain('Arguments: {"timezone":"UTC"}');
		expect(stdout).toContain("Finished: toolUse");
		expect(stdout).toContain("It is noon UTC.");
		expect(stdout).toContain("Still noon.");
		expect(server.requests.map((request) => request.path)).toEqual(["/v1/responses", "/v1/responses", "/v1/responses"]);
	});

	it("ai-faux-provider runs offline as it is", { timeout: 120_000 }, async () => {
		const { stdout, stderr } = await runExample("ai-faux-provider.ts");
		expect(stderr).toBe("");
		expect(stdout.split("\n").filter(Boolean)).toEqual(expect.arrayContaining(["start", "thinking_start", "text_end", "done", "true", "0", "2"]));
	});

	it("agent-quick-start streams the reply through the Agent", { timeout: 120_000 }, async () => {
		server.reset();
		server.enqueue(sseResponse(anthropicReply("Hello there!")));
		const { stdout, stderr } = await runExample("agent-quick-start.ts");
		expect(stderr).toBe("");
		expect(stdout).toBe("Hello there!");
		expect(server.requests[0]?.path).toBe("/v1/messages");
	});
});
