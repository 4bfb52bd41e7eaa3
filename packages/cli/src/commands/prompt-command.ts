/**
 * `pi-ai [options] [prompt...]`: one prompt, streamed; with tools, the whole agent loop.
 */
import { Agent, type AgentMessage, type AgentTool } from "@pi/agent-core";
import type { AssistantMessage, ImageContent } from "@pi/ai";
import { readImageAttachment } from "../attachment.js";
import { chooseModel } from "../choose-model.js";
import { CliError, EXIT_INTERRUPTED, EXIT_OK, EXIT_REPLY_ERROR } from "../cli-error.js";
import { checkConversationFlags, type Conversation, type ConversationRequest, modelRecord, openContinued, openNew } from "../conversation.js";
import { JsonPrinter } from "../json-printer.js";
import { parseArguments } from "../parse-arguments.js";
import { readAllStdin } from "../read-input.js";
import { ReplyPrinter } from "../reply-printer.js";
import { readSchemaFile } from "../schema-file.js";
import { createStyle } from "../terminal/style.js";
import { builtinTool, loadToolsModule } from "../tools/load-tools.js";
import { sumUsage, usageLine } from "../usage-summary.js";

/** The flags of the prompt command (see help-text.ts). */
export const PROMPT_OPTIONS = {
	model: { type: "string", short: "m" },
	system: { type: "string", short: "s" },
	attach: { type: "string", short: "a", multiple: true },
	"base-url": { type: "string" },
	continue: { type: "boolean", short: "c" },
	session: { type: "string" },
	"no-session": { type: "boolean" },
	tool: { type: "string", multiple: true },
	tools: { type: "string", multiple: true },
	"no-thinking": { type: "boolean" },
	json: { type: "boolean" },
	quiet: { type: "boolean", short: "q" },
	schema: { type: "string" },
} as const;

/**
 * The prompt: the arguments joined by spaces, after standard input when it is piped
 * (`cat notes.txt | pi-ai "Summarise this."` sends the notes, a blank line, then the request).
 */
async function promptText(positionals: string[]): Promise<string> {
	const argumentText = positionals.join(" ").trim();
	const piped = process.stdin.isTTY ? "" : (await readAllStdin()).trim();
	const text = [piped, argumentText].filter(Boolean).join("\n\n");
	if (text === "") throw new CliError("no prompt: give it as an argument (pi-ai \"Hello\") or on standard input (see pi-ai --help)");
	return text;
}

async function collectTools(builtins: readonly string[], modules: readonly string[]): Promise<AgentTool<any>[]> {
	const tools = [...builtins.map(builtinTool)];
	for (const path of modules) tools.push(...(await loadToolsModule(path)));
	const seen = new Set<string>();
	for (const tool of tools) {
		if (seen.has(tool.name)) throw new CliError(`two tools are named "${tool.name}"; tool names must be unique`);
		seen.add(tool.name);
	}
	return tools;
}

/** Runs one prompt; resolves to the exit code. */
export async function promptCommand(argv: string[]): Promise<number> {
	const { values, positionals } = parseArguments(argv, PROMPT_OPTIONS, "pi-ai");
	const request: ConversationRequest = { continueLast: values.continue === true, sessionRef: values.session, noSession: values["no-session"] === true };
	checkConversationFlags(request);
	const images: ImageContent[] = (values.attach ?? []).map(readImageAttachment);
	const tools = await collectTools(values.tool ?? [], values.tools ?? []);
	if (values.schema !== undefined) readSchemaFile(values.schema); // a bad file is a usage error before anything runs
	const continued = await openContinued(request);
	try {
		const chosen = chooseModel({ spec: values.model, baseUrl: values["base-url"], resumedModel: continued?.resumedModel });
		if (images.length > 0 && !chosen.model.input.includes("image")) {
			throw new CliError(`${chosen.label} does not accept images; pick a model that does (pi-ai models shows them)`);
		}
		const text = await promptText(positionals);
		// A new conversation's file is created only now, once the prompt is known to be runnable.
		const conversation = continued ?? (await openNew(request));
		try {
			return await runPrompt(conversation, chosen, text, images, tools, values);
		} finally {
			if (!continued) await conversation.session?.close();
		}
	} finally {
		await continued?.session?.close();
	}
}

type PromptValues = ReturnType<typeof parseArguments<typeof PROMPT_OPTIONS>>["values"];

async function runPrompt(
	conversation: Conversation,
	chosen: ReturnType<typeof chooseModel>,
	text: string,
	images: ImageContent[],
	tools: AgentTool<any>[],
	values: PromptValues,
): Promise<number> {
	const { context } = conversation;
	const systemPrompt = values.system ?? context.systemPrompt ?? "";
	const thinkingLevel = chosen.thinking ?? context.thinkingLevel ?? "off";
	const record = modelRecord(conversation, chosen.model);
	if (record) await conversation.session?.append([record]);

	// With a session the agent restores the messages from it and records the settings and every
	// message itself; without one (--no-session) it starts empty.
	const agent = new Agent({
		session: conversation.session,
		initialState: { model: chosen.model, systemPrompt, thinkingLevel, tools },
		getApiKey: () => chosen.apiKey,
		output: values.schema !== undefined ? readSchemaFile(values.schema) : undefined,
	});
	// With --schema, standard output gets the validated object at the end; the raw JSON streams to stderr.
	const printer = values.json
		? new JsonPrinter(process.stdout)
		: new ReplyPrinter({ stdout: values.schema !== undefined ? process.stderr : process.stdout, stderr: process.stderr, showThinking: !values["no-thinking"], label: chosen.label });
	agent.subscribe((event) => printer.handle(event));

	// Ctrl-C aborts the request at once; the partial reply ends as an `aborted` message (and is
	// kept). A second Ctrl-C exits without waiting.
	let interrupted = false;
	const onInterrupt = () => {
		if (interrupted) process.exit(EXIT_INTERRUPTED);
		interrupted = true;
		agent.abort();
	};
	process.on("SIGINT", onInterrupt);
	const started = Date.now();
	const before = agent.state.messages.length;
	try {
		await agent.prompt(text, images);
	} finally {
		process.off("SIGINT", onInterrupt);
		if (printer instanceof ReplyPrinter) printer.finish();
	}
	const elapsedMs = Date.now() - started;
	const added: AgentMessage[] = agent.state.messages.slice(before);
	const reply = [...added].reverse().find((message): message is AssistantMessage => message.role === "assistant");
	const usage = sumUsage(added);

	if (printer instanceof JsonPrinter) printer.line({ type: "result", message: reply, usage, durationMs: elapsedMs, session: conversation.id ?? null });
	const err = createStyle(process.stderr);
	if (!values.quiet) process.stderr.write(`${err.dim(usageLine(chosen.label, chosen.model, usage, elapsedMs))}\n`);
	if (interrupted || reply?.stopReason === "aborted") {
		process.stderr.write(`${err.yellow(`pi-ai: interrupted${conversation.id ? ` (the partial reply is kept: pi-ai -c continues)` : ""}`)}\n`);
		return EXIT_INTERRUPTED;
	}
	if (!reply || reply.stopReason === "error") {
		process.stderr.write(`${err.red(`pi-ai: ${chosen.label} replied with an error: ${reply?.errorMessage ?? "no reply"}`)}\n`);
		return EXIT_REPLY_ERROR;
	}
	if (reply.stopReason === "length") process.stderr.write(`${err.yellow("pi-ai: the reply was cut off at the model's output limit")}\n`);
	if (values.schema !== undefined && !values.json) {
		if (reply.output === undefined) return EXIT_REPLY_ERROR; // cut off: no object to print
		process.stdout.write(`${JSON.stringify(reply.output, null, 2)}\n`);
	}
	return EXIT_OK;
}
