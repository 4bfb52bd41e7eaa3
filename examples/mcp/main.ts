/**
 * An agent with the tools, resources and prompts of an MCP server (`pnpm --filter @pi/examples mcp`).
 *
 * Starts the MCP reference server, @modelcontextprotocol/server-everything, as a child process
 * (stdio), or connects to the server at `--url <url>` (Streamable HTTP), then:
 * 1. prints who the server is and what it offers;
 * 2. runs an agent whose tools are the server's (prefixed `everything_`), live: tool calls,
 *    progress updates and results as they come;
 * 3. fills in one of the server's prompts and passes it to the agent.
 *
 * Runs offline on the built-in scripted model; with OPENAI_API_KEY set it asks gpt-4o-mini.
 */
import { fileURLToPath } from "node:url";
import { fauxAssistantMessage, fauxToolCall, getModel, type Model, registerFauxProvider } from "@pi/ai";
import { Agent } from "@pi/agent-core";
import { connectMcp, type McpConnectOptions } from "@pi/mcp";

const urlFlag = process.argv.indexOf("--url");
const url = urlFlag >= 0 ? process.argv[urlFlag + 1] : undefined;
const options: McpConnectOptions = url
	? { url, name: "everything" }
	: {
			command: process.execPath,
			args: [fileURLToPath(import.meta.resolve("@modelcontextprotocol/server-everything/dist/index.js")), "stdio"],
			name: "everything",
		};

/** gpt-4o-mini when a key is set, else the scripted model, told what to call. */
function pickModel(): Model<any> {
	if (process.env.OPENAI_API_KEY) return getModel("openai", "gpt-4o-mini")!;
	const faux = registerFauxProvider({ tokensPerSecond: 200 });
	faux.setResponses([
		fauxAssistantMessage([fauxToolCall("everything_get-sum", { a: 19, b: 23 })]),
		fauxAssistantMessage([fauxToolCall("everything_trigger-long-running-operation", { duration: 0.6, steps: 3 })]),
		fauxAssistantMessage("19 + 23 is 42, and the long operation finished."),
		fauxAssistantMessage("Lyon is in the Auvergne-Rhône-Alpes region; expect mild weather."),
	]);
	return faux.getModel();
}

const server = await connectMcp(options);
try {
	console.log(`Connected to ${server.serverInfo.title ?? server.serverInfo.name} ${server.serverInfo.version}`);
	const tools = await server.tools({ prefix: "everything_", include: ["get-sum", "trigger-long-running-operation", "echo"] });
	console.log(`Tools: ${tools.map((tool) => tool.name).join(", ")}`);
	console.log(`Resources: ${(await server.resources()).length}; prompts: ${(await server.prompts()).map((prompt) => prompt.name).join(", ")}`);

	const agent = new Agent({ initialState: { model: pickModel(), systemPrompt: "Use the tools to answer.", tools } });
	agent.subscribe((event) => {
		if (event.type === "tool_execution_start") console.log(`→ ${event.toolName} ${JSON.stringify(event.args)}`);
		if (event.type === "tool_execution_update") console.log(`  … ${event.partialResult.content[0]?.type === "text" ? event.partialResult.content[0].text : ""}`);
		if (event.type === "tool_execution_end") {
			const text = event.result.content.map((block: { type: string; text?: string }) => block.text ?? `[${block.type}]`).join(" ");
			console.log(`← ${event.toolName}${event.isError ? " (error)" : ""}: ${text}`);
		}
		if (event.type === "message_end" && event.message.role === "assistant") {
			const text = event.message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
			if (text) console.log(`Assistant: ${text}`);
		}
	});
	await agent.prompt("What is 19 + 23? Then run the long operation for 0.6 seconds in 3 steps.");

	// A server prompt, filled in, becomes the next user message.
	await agent.prompt(await server.getPrompt("args-prompt", { city: "Lyon" }));
} finally {
	await server.close();
}
