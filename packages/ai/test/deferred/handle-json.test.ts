/**
 * A handle is plain JSON: one process submits a deferred request and writes the handle to a
 * file; a child process that shares nothing with it but that file (and the server) redeems it.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { streamAnthropic } from "../../src/providers/anthropic-messages.js";
import { jsonResponse, type ReplayServer, startReplayServer, textResponse } from "../../src/testing/index.js";
import type { AssistantMessage } from "../../src/types.js";
import { anthropicMessageFromCapture, anthropicModel, comparable, HELLO, KEY, streamedReply } from "./helpers.js";

let server: ReplayServer;
const folder = mkdtempSync(join(tmpdir(), "pi-deferred-"));
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(async () => {
	await server.close();
	rmSync(folder, { recursive: true, force: true });
});

it("a handle written as JSON is redeemed in a child process", async () => {
	const submit = server.route("POST", "/v1/messages/batches", jsonResponse(200, { id: "msgbatch_json", type: "message_batch", processing_status: "in_progress", created_at: new Date().toISOString() }));
	const placeholder = await streamAnthropic(anthropicModel(server), HELLO, { apiKey: KEY, deferred: true }).result();
	const customId = (submit.requests[0]?.json as { requests: { custom_id: string }[] }).requests[0]?.custom_id;
	const file = join(folder, "handle.json");
	writeFileSync(file, JSON.stringify(placeholder.deferred));

	server.route("GET", "/v1/messages/batches/{id}", [
		jsonResponse(200, { id: "msgbatch_json", processing_status: "in_progress", results_url: null }),
		jsonResponse(200, { id: "msgbatch_json", processing_status: "ended", results_url: `${server.url}/v1/messages/batches/msgbatch_json/results` }),
	]);
	server.route("GET", "/v1/messages/batches/{id}/results", textResponse(200, `${JSON.stringify({ custom_id: customId, result: { type: "succeeded", message: anthropicMessageFromCapture("tool-use-single") } })}\n`));

	const script = fileURLToPath(new URL("./child/redeem-handle.ts", import.meta.url));
	const child = spawn(process.execPath, ["--import", "tsx", script, server.url, file], { stdio: ["ignore", "pipe", "pipe"] });
	let stdout = "";
	let stderr = "";
	child.stdout.on("data", (data: Buffer) => (stdout += data.toString()));
	child.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
	const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
	expect(stderr).toBe("");
	expect(code).toBe(0);
	const message = JSON.parse(stdout.trim()) as AssistantMessage;
	const streamed = await streamedReply("anthropic-messages", "tool-use-single");
	expect(comparable(message).content).toEqual(comparable(streamed).content);
	expect(message.stopReason).toBe("toolUse");
	// The message's own id, as the stream would have given it.
	expect(message.responseId).toBe(streamed.responseId);
}, 30_000);
