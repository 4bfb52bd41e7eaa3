// A minimal MCP server over stdio in plain JSON-RPC, without the SDK, so that it starts in a few
// milliseconds even on a loaded machine: it answers initialize and tools/list, and never answers
// tools/call. The timeout test needs a server whose only slow request is the call.
import { createInterface } from "node:readline";

const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
createInterface({ input: process.stdin }).on("line", (line) => {
	const request = JSON.parse(line);
	if (request.method === "initialize") {
		send({ id: request.id, result: { protocolVersion: request.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "silent", version: "1.0.0" } } });
	} else if (request.method === "tools/list") {
		send({ id: request.id, result: { tools: [{ name: "never", description: "Never answers.", inputSchema: { type: "object", properties: {} } }] } });
	} else if (request.method === "ping") {
		send({ id: request.id, result: {} });
	}
});
