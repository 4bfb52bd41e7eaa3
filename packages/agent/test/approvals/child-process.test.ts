import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Agent, pendingApprovals, TOOL_INTERRUPTED_TEXT } from "@pi/agent-core";
import { openSessionFile } from "@pi/agent-core/node";
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { reply, scriptedStream, testModel } from "../helpers/scripted-stream.js";
import { exited, tempSessionPath } from "../session/file-helpers.js";
import { fileTool, resultTexts } from "./helpers.js";

const childScript = fileURLToPath(new URL("./fixtures/approval-child.ts", import.meta.url));

/** Runs the child with `args` until it prints a line matching `until` (then kills it) or exits. */
async function child(args: string[], until?: RegExp): Promise<{ lines: string[]; code: number | null }> {
	const process_ = spawn(process.execPath, ["--import", "tsx", "--conditions=development", childScript, ...args], { stdio: ["ignore", "pipe", "pipe"] });
	let stdout = "";
	let stderr = "";
	process_.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString()));
	await new Promise<void>((resolve, reject) => {
		process_.stdout.on("data", (chunk: Buffer) => {
			stdout += chunk.toString();
			if (until?.test(stdout)) {
				process_.kill("SIGKILL");
				resolve();
			}
		});
		process_.once("exit", (code) => (until && !until.test(stdout) ? reject(new Error(`child exited (${code}) before ${until}: ${stderr}`)) : resolve()));
	});
	await exited(process_);
	if (!until && process_.exitCode !== 0) throw new Error(`child failed (${process_.exitCode}): ${stderr}`);
	return { lines: stdout.trim().split("\n"), code: process_.exitCode };
}

function runs(path: string): string[] {
	return existsSync(`${path}.ran`) ? readFileSync(`${path}.ran`, "utf8").trim().split("\n") : [];
}

describe("approvals across processes, through a session file", { timeout: 60_000 }, () => {
	it("a run paused in one process is approved and finished in another; the tool runs once", async () => {
		const path = tempSessionPath();
		const paused = await child(["pause", path]);
		expect(JSON.parse(paused.lines[0] as string)).toEqual([{ toolCallId: "call_1", toolName: "delete_file", arguments: { path: "tmp/a.log" } }]);
		expect(runs(path)).toEqual([]);

		// This process sees the same pending list, from the file alone.
		const session = await openSessionFile(path);
		expect(pendingApprovals(session).map((call) => call.toolCallId)).toEqual(["call_1"]);
		const agent = new Agent({ session, initialState: { model: testModel, tools: [fileTool("delete_file", true)] } });
		expect(agent.state.pendingApprovals.map((call) => call.toolCallId)).toEqual(["call_1"]);
		await session.close();

		const approved = await child(["approve", path, "call_1"]);
		expect(approved.lines).toEqual(["done 4"]);
		expect(runs(path)).toEqual(["tmp/a.log"]);

		const after = await openSessionFile(path);
		expect((await after.buildContext()).messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
		expect(resultTexts((await after.buildContext()).messages)).toEqual({ call_1: "deleted tmp/a.log" });
		expect(pendingApprovals(after)).toEqual([]);
		const kinds = (await after.entries()).map((entry) => entry.type).filter((type) => type.startsWith("tool_approval"));
		expect(kinds).toEqual(["tool_approval_request", "tool_approval_decision", "tool_approval_run"]);
		await after.close();
	});

	it("a worker SIGKILLed while the approved tool runs: on resume the call is interrupted, never run twice", async () => {
		const path = tempSessionPath();
		await child(["pause", path]);
		await child(["approve-hang", path, "call_1"], /tool running/);
		expect(runs(path)).toEqual(["tmp/a.log"]);

		const session = await openSessionFile(path);
		expect(pendingApprovals(session)).toEqual([]);
		const tool = fileTool("delete_file", true);
		const streamFn = scriptedStream([reply("The delete was interrupted; I will check.")]);
		const agent = new Agent({ session, initialState: { model: testModel, tools: [tool] }, streamFn });
		await agent.continue();
		expect(tool.ran).toEqual([]);
		expect(runs(path)).toEqual(["tmp/a.log"]);
		expect(resultTexts(agent.state.messages)).toEqual({ call_1: TOOL_INTERRUPTED_TEXT });
		expect(streamFn.contexts[0]?.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult"]);
		await session.close();

		const again = await openSessionFile(path);
		expect((await again.buildContext()).messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
		await again.close();
	});

	it("a worker SIGKILLed after storing the approval, before the tool started: the call runs once on resume", async () => {
		const path = tempSessionPath();
		await child(["pause", path]);
		await child(["decide-hang", path, "call_1"], /approved/);
		expect(runs(path)).toEqual([]);

		const session = await openSessionFile(path);
		expect(pendingApprovals(session)).toEqual([]);
		const tool = fileTool("delete_file", true);
		const agent = new Agent({ session, initialState: { model: testModel, tools: [tool] }, streamFn: scriptedStream([reply("Deleted.")]) });
		await agent.continue();
		expect(tool.ran).toEqual(["delete_file:tmp/a.log"]);
		expect(agent.state.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
		await session.close();
	});
});
