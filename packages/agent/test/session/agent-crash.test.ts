import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Agent } from "@pi/agent-core";
import { openSessionFile } from "@pi/agent-core/node";
import type { ToolResultMessage } from "@pi/ai";
import { describe, expect, it } from "vitest";
import { reply, scriptedStream, testModel } from "../helpers/scripted-stream.js";
import { customTool } from "../helpers/tools.js";
import { exited, tempSessionPath } from "./file-helpers.js";

const childScript = fileURLToPath(new URL("./fixtures/agent-child.ts", import.meta.url));

describe("a process SIGKILLed in a tool turn, then resumed", { timeout: 60_000 }, () => {
	it("finds the tool-call message on disk, gives each call one interrupted result, runs no tool again, and goes on", async () => {
		const path = tempSessionPath();
		const child = spawn(process.execPath, ["--import", "tsx", "--conditions=development", childScript, path], { stdio: ["ignore", "pipe", "pipe"] });
		let stderr = "";
		child.stderr.on("data", (chunk: Buffer) => {
			stderr += chunk.toString();
		});
		await new Promise<void>((resolve, reject) => {
			child.stdout.on("data", (chunk: Buffer) => {
				if (chunk.toString().includes("tool running")) resolve();
			});
			child.once("exit", (code) => reject(new Error(`child exited (${code}) before its tool ran: ${stderr}`)));
		});
		child.kill("SIGKILL");
		await exited(child);

		// The lock of the dead process is taken over; the tool-call message was stored before the tool ran.
		const session = await openSessionFile(path);
		expect(session.repaired).toBe(false);
		expect((await session.buildContext()).messages.map((m) => m.role)).toEqual(["user", "assistant"]);

		const tool = customTool("slow");
		let toolRuns = 0;
		const counted = { ...tool, execute: async (...args: Parameters<typeof tool.execute>) => (toolRuns++, tool.execute(...args)) };
		const streamFn = scriptedStream([reply("Sorry, the slow tool was interrupted.")]);
		const agent = new Agent({ session, initialState: { tools: [counted], model: testModel }, streamFn });
		await agent.continue();
		expect(toolRuns).toBe(0);
		expect(streamFn.contexts[0]?.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "toolResult"]);
		const results = agent.state.messages.filter((m): m is ToolResultMessage => m.role === "toolResult");
		expect(results.map((r) => [r.toolCallId, r.isError])).toEqual([
			["call_slow", true],
			["call_more", true],
		]);
		await session.close();

		// A second resume still finds exactly one result per call.
		const again = await openSessionFile(path);
		const roles = (await again.buildContext()).messages.map((m) => m.role);
		expect(roles).toEqual(["user", "assistant", "toolResult", "toolResult", "assistant"]);
		await again.close();
	});
});
