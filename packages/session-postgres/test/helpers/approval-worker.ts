/**
 * A worker process for the approval test: one step of an agent on a PostgreSQL session, then
 * exit. Argv: connection string, schema, session id, mode.
 *
 * - `pause`: prompts; the scripted model asks for `delete_file` (needs approval); prints the
 *   pending approvals as JSON;
 * - `continue`: continues (the decision was stored by another process), prints the tool-result
 *   text and the final reply.
 *
 * Every run of the tool prints `ran PATH`, so the parent counts runs across processes.
 */
import { Agent, defineTool } from "@pi/agent-core";
import { fauxAssistantMessage, fauxToolCall, registerFauxProvider, Type } from "@pi/ai";
import { createPostgresSessionStore } from "../../src/index.js";

const [connectionString, schema, sessionId, mode] = process.argv.slice(2) as [string, string, string, string];
const faux = registerFauxProvider();
faux.setResponses(
	mode === "pause" ? [fauxAssistantMessage([fauxToolCall("delete_file", { path: "tmp/a.log" }, { id: "call_1" })])] : [fauxAssistantMessage("Deleted tmp/a.log.")],
);
const deleteFile = defineTool({
	name: "delete_file",
	label: "Delete",
	description: "Deletes a file.",
	parameters: Type.Object({ path: Type.String() }),
	needsApproval: true,
	execute: async (_id, { path }) => {
		process.stdout.write(`ran ${path}\n`);
		return { content: [{ type: "text", text: `deleted ${path}` }], details: {} };
	},
});
const store = createPostgresSessionStore({ connectionString, schema });
const session = await store.open(sessionId);
const agent = new Agent({ session, initialState: { model: faux.getModel(), tools: [deleteFile] } });
if (mode === "pause") {
	await agent.prompt("Clean up the temp files");
	process.stdout.write(`${JSON.stringify(agent.state.pendingApprovals)}\n`);
} else {
	await agent.continue();
	const last = agent.state.messages.at(-1) as { content: { type: string; text?: string }[] };
	process.stdout.write(`reply ${last.content.map((block) => block.text ?? "").join("")}\n`);
}
await session.close();
await store.close();
