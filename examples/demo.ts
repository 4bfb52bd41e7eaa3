/**
 * `pnpm demo`: the seed's calculator agent, streamed live.
 *
 * The user asks "帮我算 3 + 4"; the assistant calls the `calculator` tool; the tool answers "7";
 * the assistant replies. Text streams as it arrives, thinking is dimmed, tool calls show their
 * arguments as they form; the agent's events drive the output. Then the transcript is printed
 * as JSON in the seed's shape, with usage and cost.
 *
 * It uses a real provider when its key is set (see pickModel), and otherwise the built-in
 * scripted provider, so it always works offline.
 *
 * The conversation is kept in a session file, so a second run continues it ("resumed 4
 * messages"): `PI_DEMO_SESSION` names the file (default: pi-demo/session.jsonl in the OS temp
 * folder), and `--new` starts it over.
 */
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, type AgentEvent, type AgentTool } from "@pi/agent-core";
import { openSessionFile } from "@pi/agent-core/node";
import {
	type AssistantMessageEvent,
	fauxAssistantMessage,
	fauxText,
	fauxThinking,
	fauxToolCall,
	getEnvApiKey,
	getModel,
	type Model,
	registerFauxProvider,
	type TSchema,
} from "@pi/ai";

/**
 * Terminal styles, only where they render: on a TTY that has colours. `hasColors()` is false when
 * NO_COLOR is set (https://no-color.org), for TERM=dumb and NODE_DISABLE_COLORS; pipes and files
 * get plain text.
 */
const styled = (stream: NodeJS.WriteStream, open: string, close: string) => (text: string) =>
	stream.isTTY && stream.hasColors?.() ? `${open}${text}${close}` : text;
const dim = styled(process.stdout, "\x1b[2m", "\x1b[22m");
const bold = styled(process.stdout, "\x1b[1m", "\x1b[22m");
const red = styled(process.stderr, "\x1b[31m", "\x1b[39m");

/** A failed or aborted reply, on stderr (red on a terminal): where the user looks, not only in the JSON. */
function reportFailure(message: { stopReason: string; errorMessage?: string }): void {
	process.stderr.write(`${red(`${message.stopReason}: ${message.errorMessage ?? "(no error message)"}`)}\n`);
}

/** The seed's calculator tool. Its schema is plain JSON Schema: no typebox import needed. */
const calculator: AgentTool<TSchema, { expression: string }> = {
	name: "calculator",
	label: "Calculator",
	description: "Adds, subtracts, multiplies or divides two numbers.",
	parameters: {
		type: "object",
		properties: {
			a: { type: "number" },
			b: { type: "number" },
			op: { type: "string", enum: ["+", "-", "*", "/"], description: "Default +" },
		},
		required: ["a", "b"],
	} as unknown as TSchema,
	async execute(_toolCallId, params) {
		// The loop validated params against the schema before calling execute.
		const { a, b, op = "+" } = params as { a: number; b: number; op?: string };
		const value = op === "-" ? a - b : op === "*" ? a * b : op === "/" ? a / b : a + b;
		return { content: [{ type: "text", text: String(value) }], details: { expression: `${a} ${op} ${b}` } };
	},
};

/** A real model when a key (or a compatible server's base URL) is in the environment. */
function pickModel(): { model: Model; label: string } {
	const baseUrl = process.env.PI_BASE_URL ?? process.env.OPENAI_BASE_URL;
	if (baseUrl) {
		const id = process.env.PI_MODEL ?? "llama3.1";
		const model: Model<"openai-completions"> = {
			id,
			name: id,
			api: "openai-completions",
			provider: process.env.PI_PROVIDER ?? "openai-compatible",
			baseUrl,
			reasoning: false,
			input: ["text"],
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
			contextWindow: 128_000,
			maxTokens: 4096,
		};
		return { model, label: `${id} at ${baseUrl}` };
	}
	const candidates: [string, string][] = [
		["openai", "gpt-6-luna"],
		["anthropic", "claude-haiku-4-5"],
		["google", "gemini-3.8-flash"],
	];
	for (const [provider, id] of candidates) {
		if (!getEnvApiKey(provider)) continue;
		const model = getModel(provider, id);
		if (model) return { model, label: `${provider}/${id}` };
	}
	const faux = registerFauxProvider({ tokensPerSecond: 60, tokenSize: { min: 1, max: 4 } });
	faux.setResponses([
		fauxAssistantMessage([
			fauxThinking("The user wants 3 + 4. I will use the calculator tool rather than guess."),
			fauxToolCall("calculator", { a: 3, b: 4, op: "+" }, { id: "tc1" }),
		]),
		(context) => {
			const last = context.messages.at(-1);
			const result = last?.role === "toolResult" ? (last.content[0] as { text: string }).text : "?";
			return fauxAssistantMessage([fauxText(`3 + 4 = ${result}`)]);
		},
	]);
	return { model: faux.getModel(), label: "the built-in scripted provider (set OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY or PI_BASE_URL for a real one)" };
}

function renderReply(event: AssistantMessageEvent): void {
	switch (event.type) {
		case "thinking_start":
			process.stdout.write(dim("thinking: "));
			break;
		case "thinking_delta":
			process.stdout.write(dim(event.delta));
			break;
		case "text_delta":
			process.stdout.write(event.delta);
			break;
		case "toolcall_start":
			process.stdout.write(bold("tool call: "));
			break;
		case "toolcall_delta":
			process.stdout.write(dim(event.delta));
			break;
		case "toolcall_end":
			process.stdout.write(`\n→ ${event.toolCall.name}(${JSON.stringify(event.toolCall.arguments)})\n`);
			break;
		case "thinking_end":
		case "text_end":
			process.stdout.write("\n");
			break;
		default:
			break;
	}
}

function render(event: AgentEvent): void {
	switch (event.type) {
		case "message_start":
			if (event.message.role === "assistant") process.stdout.write(bold("assistant: "));
			break;
		case "message_update":
			renderReply(event.assistantMessageEvent);
			break;
		case "message_end":
			if (event.message.role === "assistant" && (event.message.stopReason === "error" || event.message.stopReason === "aborted")) {
				process.stdout.write("\n");
				reportFailure(event.message);
			}
			break;
		case "tool_execution_end": {
			const first = event.result.content[0];
			process.stdout.write(`${bold("tool result:")} ${first?.type === "text" ? first.text : ""}${event.isError ? " (error)" : ""}\n`);
			break;
		}
		case "compaction_start":
			process.stdout.write(dim(`(compacting the conversation: about ${event.tokensBefore} tokens)\n`));
			break;
		case "compaction_end":
			process.stdout.write(dim(event.summary ? `(compacted to about ${event.tokensAfter} tokens)\n` : `(compaction stopped: ${event.errorMessage ?? "aborted"})\n`));
			break;
		case "agent_end":
			process.stdout.write(dim(`(agent_end after ${event.messages.length} new messages)\n`));
			break;
		default:
			break;
	}
}

async function main(): Promise<void> {
	const { model, label } = pickModel();
	console.log(bold(`Model: ${label}\n`));
	// The conversation lives in a session file: every message is on disk before the run goes on.
	const sessionPath = process.env.PI_DEMO_SESSION || join(tmpdir(), "pi-demo", "session.jsonl");
	if (process.argv.includes("--new")) rmSync(sessionPath, { force: true });
	const session = await openSessionFile(sessionPath);
	try {
		const agent = new Agent({
			session,
			initialState: {
				systemPrompt: "You are a helpful assistant. Use the calculator tool for arithmetic, then answer briefly.",
				model,
				tools: [calculator],
			},
			// Long sessions summarise their older messages before they outgrow the model's window.
			compaction: { enabled: true },
		});
		const resumed = agent.state.messages.length;
		console.log(dim(resumed > 0 ? `resumed ${resumed} messages from ${sessionPath} (--new starts over)\n` : `new session ${sessionPath}\n`));
		agent.subscribe(render);
		console.log(`${bold("user:")} 帮我算 3 + 4`);
		await agent.prompt("帮我算 3 + 4");
		console.log(`\n${bold("Transcript:")}`);
		console.log(JSON.stringify(agent.state.messages, null, 2));
		const last = agent.state.messages.at(-1);
		if (last?.role === "assistant" && (last.stopReason === "error" || last.stopReason === "aborted")) {
			// Again after the transcript, so that the failure is the last thing on the screen.
			reportFailure(last);
			process.exitCode = 1;
		}
	} finally {
		await session.close();
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});
