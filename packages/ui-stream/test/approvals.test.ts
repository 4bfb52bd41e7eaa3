import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Agent } from "@pi/agent-core";
import { openSessionFile } from "@pi/agent-core/node";
import { type Context, fauxAssistantMessage, fauxToolCall, registerFauxProvider } from "@pi/ai";
import { lastAssistantMessageIsCompleteWithApprovalResponses } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { expectValidChunks, expectValidUIMessages } from "./helpers/ai-schemas.js";
import { type ChatServer, startChatServer } from "./helpers/chat-server.js";
import { NodeChat } from "./helpers/node-chat.js";
import { deleteFileTool } from "./helpers/tools.js";

const servers: ChatServer[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
	await Promise.all(servers.splice(0).map((server) => server.close()));
	for (const child of children.splice(0)) child.kill();
});

/** Starts helpers/approver-process.ts in a new Node process; resolves with its chat URL. */
async function startApproverProcess(sessionPath: string, runLog: string): Promise<string> {
	const script = fileURLToPath(new URL("./helpers/approver-process.ts", import.meta.url));
	const child = spawn(process.execPath, ["--import", "tsx", "--conditions=development", script, sessionPath, runLog], { stdio: ["ignore", "pipe", "pipe"] });
	children.push(child);
	let stderr = "";
	child.stderr?.on("data", (chunk: Buffer) => {
		stderr += chunk.toString();
	});
	return new Promise<string>((resolve, reject) => {
		child.stdout?.on("data", (chunk: Buffer) => resolve(chunk.toString().trim()));
		child.once("exit", (code) => reject(new Error(`the approver process exited (${code}) before listening: ${stderr}`)));
	});
}

async function until(condition: () => boolean): Promise<void> {
	while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** Two servers over one session file, each opening it per request: nothing is held in memory between requests. */
async function twoServers(tools: ReturnType<typeof deleteFileTool>[], model: ReturnType<ReturnType<typeof registerFauxProvider>["getModel"]>) {
	const path = join(mkdtempSync(join(tmpdir(), "ui-stream-")), "chat.jsonl");
	const open = async () => new Agent({ session: await openSessionFile(path), initialState: { model, tools } });
	const close = async (agent: Agent) => agent.session?.close();
	const a = await startChatServer(open, { afterRequest: close });
	const b = await startChatServer(open, { afterRequest: close });
	servers.push(a, b);
	return { path, a, b };
}

describe("approvals through useChat's addToolApprovalResponse, with a session", () => {
	it("a call that needs approval becomes tool-approval-request; the approval, sent by another server's request, runs it once and the run goes on", async () => {
		const deleted: string[] = [];
		const faux = registerFauxProvider();
		const seen: Context["messages"][] = [];
		faux.setResponses([
			fauxAssistantMessage([fauxToolCall("delete_file", { path: "tmp/a.log" }, { id: "call_del" })]),
			(context) => {
				seen.push(structuredClone(context.messages));
				return fauxAssistantMessage("Deleted tmp/a.log.");
			},
			fauxAssistantMessage("You're welcome."),
		]);
		const { path, a, b } = await twoServers([deleteFileTool(deleted)], faux.getModel());
		let api = a.url;
		const chat = new NodeChat(() => api, { sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses });

		await chat.sendMessage({ text: "Clean up tmp/a.log" });
		expect(chat.messages[1]?.parts[1]).toMatchObject({ type: "tool-delete_file", toolCallId: "call_del", state: "approval-requested", approval: { id: "call_del" } });
		expect(a.requests[0]?.chunks).toContainEqual({ type: "tool-approval-request", approvalId: "call_del", toolCallId: "call_del" });
		expect(a.requests[0]?.chunks.at(-1)).toMatchObject({ type: "finish", finishReason: "tool-calls" });
		expect(deleted).toEqual([]);

		// The next request goes to the other server: the pause is in the session file, not in memory.
		api = b.url;
		await chat.addToolApprovalResponse({ id: "call_del", approved: true });
		await until(() => b.requests.length === 1 && chat.status === "ready" && chat.messages[1]?.parts.at(-1)?.type === "text");
		expect(deleted).toEqual(["tmp/a.log"]);
		expect(chat.messages).toHaveLength(2);
		expect(chat.messages[1]?.parts.map((part) => ("state" in part ? `${part.type}:${part.state}` : part.type))).toEqual(["step-start", "tool-delete_file:output-available", "step-start", "text:done"]);
		expect(chat.messages[1]?.parts[1]).toMatchObject({ output: "deleted tmp/a.log" });
		expect(seen[0]?.at(-1)).toMatchObject({ role: "toolResult", toolCallId: "call_del", isError: false });
		// The continued message's metadata covers both requests' steps.
		expect(chat.messages[1]?.metadata).toMatchObject({ pi: { steps: [{ stopReason: "toolUse" }, { stopReason: "stop" }] } });
		await expectValidChunks(a.requests[0]?.chunks ?? []);
		await expectValidChunks(b.requests[0]?.chunks ?? []);
		await expectValidUIMessages(chat.messages);

		// A third turn on the first server: the client resends everything; the session gets only the new message.
		api = a.url;
		await chat.sendMessage({ text: "Thanks" });
		expect(chat.messages.at(-1)?.parts.at(-1)).toMatchObject({ type: "text", text: "You're welcome." });
		const session = await openSessionFile(path);
		const messages = (await session.buildContext()).messages;
		expect(messages.map((message) => message.role)).toEqual(["user", "assistant", "toolResult", "assistant", "user", "assistant"]);
		expect(deleted).toEqual(["tmp/a.log"]);
		await session.close();
		faux.unregister();
	});

	it("works across server processes: the run paused in this process is approved and finished by another one", async () => {
		const deleted: string[] = [];
		const faux = registerFauxProvider();
		faux.setResponses([fauxAssistantMessage([fauxToolCall("delete_file", { path: "tmp/a.log" }, { id: "call_del" })])]);
		const { path, a } = await twoServers([deleteFileTool(deleted)], faux.getModel());
		const runLog = join(mkdtempSync(join(tmpdir(), "ui-stream-runs-")), "runs.log");
		const other = await startApproverProcess(path, runLog);
		let api = a.url;
		const chat = new NodeChat(() => api, { sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses });
		await chat.sendMessage({ text: "Clean up tmp/a.log" });
		expect(chat.messages[1]?.parts[1]).toMatchObject({ state: "approval-requested" });

		api = other;
		await chat.addToolApprovalResponse({ id: "call_del", approved: true });
		await until(() => chat.status === "ready" && chat.messages[1]?.parts.at(-1)?.type === "text");
		expect(chat.messages[1]?.parts.at(-1)).toMatchObject({ type: "text", text: "Deleted tmp/a.log, from another process." });
		expect(chat.messages[1]?.parts[1]).toMatchObject({ state: "output-available", output: "deleted tmp/a.log" });
		// The tool ran once, in the other process, and never here.
		expect(deleted).toEqual([]);
		const runs = existsSync(runLog) ? readFileSync(runLog, "utf8").trim().split("\n") : [];
		expect(runs).toHaveLength(1);
		expect(runs[0]).toMatch(/^\d+ tmp\/a\.log$/);
		expect(runs[0]?.startsWith(`${process.pid} `)).toBe(false);
		await expectValidUIMessages(chat.messages);
		faux.unregister();
	});

	it("a rejected call ends tool-output-denied, the tool never runs, and the model hears the reason", async () => {
		const deleted: string[] = [];
		const faux = registerFauxProvider();
		const seen: Context["messages"][] = [];
		faux.setResponses([
			fauxAssistantMessage([fauxToolCall("delete_file", { path: "tmp/a.log" }, { id: "call_del" })]),
			(context) => {
				seen.push(structuredClone(context.messages));
				return fauxAssistantMessage("I left it alone.");
			},
		]);
		const { a } = await twoServers([deleteFileTool(deleted)], faux.getModel());
		const chat = new NodeChat(a.url, { sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses });
		await chat.sendMessage({ text: "Clean up tmp/a.log" });
		await chat.addToolApprovalResponse({ id: "call_del", approved: false, reason: "not now" });
		await until(() => a.requests.length === 2 && chat.status === "ready" && chat.messages[1]?.parts.at(-1)?.type === "text");

		expect(deleted).toEqual([]);
		expect(a.requests[1]?.chunks).toContainEqual({ type: "tool-output-denied", toolCallId: "call_del" });
		expect(chat.messages[1]?.parts[1]).toMatchObject({ type: "tool-delete_file", state: "output-denied", approval: { id: "call_del", approved: false, reason: "not now" } });
		expect(seen[0]?.at(-1)).toMatchObject({ role: "toolResult", isError: true, content: [{ type: "text", text: 'Tool call "delete_file" was rejected (not now).' }] });
		await expectValidChunks(a.requests[1]?.chunks ?? []);
		await expectValidUIMessages(chat.messages);
		faux.unregister();
	});

	it("without a session, an approval answer gets a 400 naming the part: a client's history is no proof a call was asked about", async () => {
		const faux = registerFauxProvider();
		const server = await startChatServer(() => new Agent({ initialState: { model: faux.getModel(), tools: [deleteFileTool([])] } }));
		servers.push(server);
		const response = await fetch(server.url, {
			method: "POST",
			headers: { "content-type": "application/json" },
			body: JSON.stringify({
				messages: [
					{ id: "u1", role: "user", parts: [{ type: "text", text: "Clean up" }] },
					{ id: "a1", role: "assistant", parts: [{ type: "step-start" }, { type: "tool-delete_file", toolCallId: "c1", state: "approval-responded", input: { path: "/" }, approval: { id: "c1", approved: true } }] },
				],
			}),
		});
		expect(response.status).toBe(400);
		expect(await response.text()).toBe("uiMessages[1].parts[1]: an approval answer needs an agent with a session (the pause is kept there); this agent has none");
		expect(faux.state.callCount).toBe(0);
		faux.unregister();
	});
});
