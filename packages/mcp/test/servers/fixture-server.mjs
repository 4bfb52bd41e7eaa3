// A small MCP server (stdio) built with the official SDK, for the behaviours that
// server-everything has no tool for: a server that exits during a call, a tool list that
// changes, and a request whose cancellation the server itself records. Each tool is one case.
import { appendFileSync } from "node:fs";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "pi-fixture", version: "1.0.0" }, { capabilities: { tools: { listChanged: true } } });

server.registerTool("crash", { description: "Writes to stderr, then exits with code 3 before answering." }, async () => {
	process.stderr.write("fixture: starting the crash tool\nfixture: about to fail\nError: the disk is on fire\n");
	setTimeout(() => process.exit(3), 20);
	return new Promise(() => {});
});

server.registerTool("wait-for-cancel", { description: "Never answers; records that it started, and the cancellation it receives." }, async (extra) => {
	appendFileSync(process.env.PI_FIXTURE_LOG, `${JSON.stringify({ started: extra.requestId })}\n`);
	await new Promise((resolve) => extra.signal.addEventListener("abort", resolve, { once: true }));
	appendFileSync(process.env.PI_FIXTURE_LOG, `${JSON.stringify({ cancelled: extra.requestId, reason: String(extra.signal.reason) })}\n`);
	return { content: [] };
});

server.registerTool(
	"add-tool",
	{ description: "Registers a new tool named after `name`: the server then sends notifications/tools/list_changed.", inputSchema: { name: z.string() } },
	async ({ name }) => {
		server.registerTool(name, { description: `Added at run time: ${name}` }, async () => ({ content: [{ type: "text", text: `${name} ran` }] }));
		return { content: [{ type: "text", text: `added ${name}` }] };
	},
);

await server.connect(new StdioServerTransport());
