/**
 * Deferred replies across processes, through a session file: one process prompts and ends with
 * the placeholder on disk; a fresh process opens the session and `continue()` redeems it. The
 * final message becomes a sibling entry of the placeholder on the active path (the placeholder
 * stays in the log), exactly one final message is appended for it, and its tool runs once.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { AssistantMessage } from "@pi/ai";
import { type ReplayServer, startReplayServer } from "@pi/ai/testing";
import { openSessionFile } from "@pi/agent-core/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempSessionPath } from "../session/file-helpers.js";
import { emulateBatches } from "./helpers.js";

const script = fileURLToPath(new URL("./fixtures/deferred-child.ts", import.meta.url));

interface ChildReport {
	roles: string[];
	stopReasons: string[];
	toolCalls: string[];
	error?: string;
}

function runChild(mode: "submit" | "redeem", origin: string, path: string): Promise<ChildReport> {
	const child = spawn(process.execPath, ["--import", "tsx", "--conditions=development", script, mode, origin, path], { stdio: ["ignore", "pipe", "pipe"] });
	let stdout = "";
	let stderr = "";
	child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
	child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
	return new Promise((resolve, reject) => {
		child.once("exit", (code) => {
			if (code !== 0) reject(new Error(`child ${mode} exited with ${code}: ${stderr}`));
			else resolve(JSON.parse(stdout.trim().split("\n").at(-1) as string) as ChildReport);
		});
	});
}

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());

describe("a deferred reply redeemed in a fresh process", { timeout: 180_000 }, () => {
	it("appends exactly one final message, as the placeholder's sibling, and runs its tool once", async () => {
		const path = tempSessionPath();
		const batches = emulateBatches(server);
		const submitted = await runChild("submit", server.url, path);
		expect(submitted).toMatchObject({ roles: ["user", "assistant"], stopReasons: ["deferred"], toolCalls: [] });

		const next = batches.end();
		const redeemed = await runChild("redeem", server.url, path);
		expect(redeemed.error).toBeUndefined();
		expect(redeemed.toolCalls).toEqual(["0-7653-1178-X"]);
		expect(redeemed.roles).toEqual(["user", "assistant", "toolResult", "assistant"]);
		expect(redeemed.stopReasons).toEqual(["toolUse", "stop"]);
		expect(next.requests).toHaveLength(1);

		const session = await openSessionFile(path);
		const messages = (await session.entries()).filter((entry) => entry.type === "message");
		const placeholder = messages.find((entry) => entry.type === "message" && (entry.message as AssistantMessage).stopReason === "deferred");
		expect(placeholder).toBeDefined();
		// The placeholder stays in the log; its one replacement hangs under the same parent.
		const siblings = messages.filter((entry) => entry.parentId === placeholder?.parentId && entry.type === "message" && entry.message.role === "assistant");
		expect(siblings.map((entry) => (entry.type === "message" ? (entry.message as AssistantMessage).stopReason : ""))).toEqual(["deferred", "toolUse"]);
		expect((await session.buildContext()).messages.map((message) => message.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
		expect(messages.filter((entry) => entry.type === "message" && entry.message.role === "toolResult")).toHaveLength(1);
		const before = (await session.entries()).length;
		await session.close();

		// Nothing deferred is left: a third process has nothing to redeem and appends nothing.
		const again = await runChild("redeem", server.url, path);
		expect(again.error).toMatch(/assistant/);
		expect(again.toolCalls).toEqual([]);
		const reopened = await openSessionFile(path);
		const after = await reopened.entries();
		expect(after.filter((entry) => entry.type === "message")).toHaveLength(messages.length);
		expect(after.length).toBe(before);
		await reopened.close();
	});
});
