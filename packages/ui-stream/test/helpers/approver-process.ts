// A chat server in a process of its own, for the cross-process approval test: it opens the
// session file per request (nothing carried over from the process that paused the run), answers
// with the scripted model, and logs each tool run to a file, so the test counts runs across processes.
import { appendFileSync } from "node:fs";
import { Agent } from "@pi/agent-core";
import { openSessionFile } from "@pi/agent-core/node";
import { fauxAssistantMessage, registerFauxProvider } from "@pi/ai";
import { startChatServer } from "./chat-server.js";
import { deleteFileTool } from "./tools.js";

const [sessionPath, runLog] = process.argv.slice(2) as [string, string];
const faux = registerFauxProvider();
faux.setResponses([fauxAssistantMessage("Deleted tmp/a.log, from another process.")]);
const deleted: string[] = [];
const tool = deleteFileTool(deleted);
const logged = { ...tool, execute: async (...args: Parameters<typeof tool.execute>) => (appendFileSync(runLog, `${process.pid} ${args[1].path}\n`), tool.execute(...args)) };
const server = await startChatServer(async () => new Agent({ session: await openSessionFile(sessionPath), initialState: { model: faux.getModel(), tools: [logged] } }), {
	afterRequest: async (agent) => agent.session?.close(),
});
process.stdout.write(`${server.url}\n`);
