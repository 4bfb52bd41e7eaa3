/**
 * `pi-ai [options] [prompt...]`: one prompt, streamed; with tools, the whole agent loop.
 */
import { Agent, type AgentMessage, type AgentTool } from "@pi/agent-core";
import type { AssistantMessage, ImageContent } from "@pi/ai";
import { readImageAttachment } from "../attachment.js";
import { type ChosenModel, chooseModel } from "../choose-model.js";
import { CliError, EXIT_OK, EXIT_REPLY_ERROR } from "../cli-error.js";
import { ADDED_MODEL_APIS, type AddedModelApi } from "../config.js";
import { checkConversationFlags, type Conversation, type ConversationRequest, modelRecord, openContinued, openNew } from "../conversation.js";
import { JsonPrinter } from "../json-printer.js";
import { parseArguments } from "../parse-arguments.js";
import { readAllStdin } from "../read-input.js";
import { replyErrorLines } from "../reply-error.js";
import { ReplyPrinter } from "../reply-printer.js";
import { readSchemaFile } from "../schema-file.js";
import { onStopRequest, STOP_EXIT_CODES, type StopReason } from "../stop-requests.js";
import { escapeControlCharacters } from "../terminal/escape-control-characters.js";
import { createStyle } from "../terminal/style.js";
import { settleApprovals, withApproval } from "../tools/ask-approvals.js";
import { builtinTool, loadToolsModule } from "../tools/load-tools.js";
import { sumUsage, usageLine } from "../usage-summary.js";

/** The flags of the prompt command (see help-text.ts). */
export const PROMPT_OPTIONS = {
	model: { type: "string", short: "m" },
	system: { type: "string", short: "s" },
	attach: { type: "string", short: "a", multiple: true },
	"base-url": { type: "string" },
	api: { type: "string" },
	continue: { type: "boolean", short: "c" },
	session: { type: "string" },
	"no-session": { type: "boolean" },
	tool: { type: "string", multiple: true },
	tools: { type: "string", multiple: true },
	approve: { type: "boolean" },
	"no-thinking": { type: "boolean" },
	"no-stdin": { type: "boolean" },
	json: { type: "boolean" },
	quiet: { type: "boolean", short: "q" },
	schema: { type: "string" },
} as const;

/**
 * The prompt: the arguments joined by spaces, after standard input when it is read
 * (`cat notes.txt | pi-ai "Summarise this."` sends the notes, a blank line, then the request).
 * Standard input is read when an argument is `-`, or when it is not a terminal and `--no-stdin`
 * is not given (so in a `while read` loop, pass `--no-stdin`).
 *
 * `nearCommand`: the first word is one edit away from this command; with nothing on standard
 * input, that is a mistyped command, refused before anything is sent (and paid for).
 */
async function promptText(positionals: string[], noStdin: boolean, nearCommand: string | undefined): Promise<string> {
	const dash = positionals.includes("-");
	const argumentText = positionals
		.filter((word) => word !== "-")
		.join(" ")
		.trim();
	const readStdin = dash || (!noStdin && !process.stdin.isTTY);
	const piped = readStdin ? (await readAllStdin()).trim() : "";
	if (nearCommand && piped === "") {
		const [first, ...rest] = positionals;
		throw new CliError(`"${first}" is not a command; did you mean pi-ai ${[nearCommand, ...rest].join(" ")}? (to send it as a prompt: pi-ai -- ${positionals.join(" ")})`);
	}
	const text = [piped, argumentText].filter(Boolean).join("\n\n");
	if (text === "") throw new CliError("no prompt: give it as an argument (pi-ai \"Hello\") or on standard input (see pi-ai --help)");
	return text;
}

/** `--api API` replaces the chosen model's wire API (a server that speaks another one). */
function withApi(chosen: ChosenModel, api: string | undefined): ChosenModel {
	if (api === undefined) return chosen;
	if (!(ADDED_MODEL_APIS as readonly string[]).includes(api)) throw new CliError(`--api ${api}: expected one of ${ADDED_MODEL_APIS.join(", ")}`);
	return { ...chosen, model: { ...chosen.model, api: api as AddedModelApi } };
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

/**
 * Runs one prompt; resolves to the exit code. `nearCommand` is set by the dispatcher when the
 * first argument is one edit away from a command's name.
 */
export async function promptCommand(argv: string[], nearCommand?: string): Promise<number> {
	const { values, positionals } = parseArguments(argv, PROMPT_OPTIONS, "pi-ai");
	const request: ConversationRequest = { continueLast: values.continue === true, sessionRef: values.session, noSession: values["no-session"] === true };
	checkConversationFlags(request);
	// First: a mistyped command is refused before anything else is looked at.
	const text = await promptText(positionals, values["no-stdin"] === true, nearCommand);
	const images: ImageContent[] = (values.attach ?? []).map(readImageAttachment);
	const collected = await collectTools(values.tool ?? [], values.tools ?? []);
	const tools = values.approve ? withApproval(collected) : collected;
	if (values.schema !== undefined) readSchemaFile(values.schema); // a bad file is a usage error before anything runs
	const continued = await openContinued(request);
	try {
		const chosen = withApi(chooseModel({ spec: values.model, baseUrl: values["base-url"] ?? (process.env.PI_BASE_URL || undefined), resumed: continued?.resumed }), values.api);
		if (images.length > 0 && !chosen.model.input.includes("image")) {
			throw new CliError(`${chosen.label} does not accept images; pick a model that does (pi-ai models shows them)`);
		}
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
	chosen: ChosenModel,
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

	// Ctrl-C, SIGTERM, SIGHUP and a closed stdout abort the request at once; the partial reply ends
	// as an `aborted` message (and is kept). A second signal exits without waiting.
	let stopped: StopReason | undefined;
	const stopListening = onStopRequest((reason) => {
		stopped = reason;
		agent.abort();
	});
	const started = Date.now();
	const before = agent.state.messages.length;
	try {
		await agent.prompt(text, images);
		// Calls that need approval: asked about one by one, then the run goes on (see ask-approvals.ts).
		// Ctrl-C at a question leaves the calls pending and stops like Ctrl-C during the reply.
		if (!stopped && !(await settleApprovals(agent))) stopped = "SIGINT";
	} finally {
		stopListening();
		if (printer instanceof ReplyPrinter) printer.finish();
	}
	const elapsedMs = Date.now() - started;
	const added: AgentMessage[] = agent.state.messages.slice(before);
	const reply = [...added].reverse().find((message): message is AssistantMessage => message.role === "assistant");
	const usage = sumUsage(added);

	if (printer instanceof JsonPrinter) printer.line({ type: "result", message: reply, usage, durationMs: elapsedMs, session: conversation.id ?? null });
	const err = createStyle(process.stderr);
	const printUsage = () => {
		if (!values.quiet) process.stderr.write(`${err.dim(usageLine(chosen.label, chosen.model, usage, elapsedMs))}\n`);
	};
	if (stopped || reply?.stopReason === "aborted") {
		printUsage();
		// Nobody reads a closed pipe's end: stop quietly.
		if (stopped !== "EPIPE") process.stderr.write(`${err.yellow(`pi-ai: interrupted${conversation.id ? ` (the partial reply is kept: pi-ai -c continues)` : ""}`)}\n`);
		return STOP_EXIT_CODES[stopped ?? "SIGINT"];
	}
	if (!reply || reply.stopReason === "error") {
		const lines = replyErrorLines(chosen, reply);
		// A server that was never reached used nothing: no usage line.
		if (!lines.unreached) printUsage();
		for (const line of lines.lines) process.stderr.write(`${err.red(`pi-ai: ${escapeControlCharacters(line)}`)}\n`);
		return EXIT_REPLY_ERROR;
	}
	printUsage();
	if (reply.stopReason === "length") process.stderr.write(`${err.yellow("pi-ai: the reply was cut off at the model's output limit")}\n`);
	if (values.schema !== undefined && !values.json) {
		if (reply.output === undefined) return EXIT_REPLY_ERROR; // cut off: no object to print
		process.stdout.write(`${JSON.stringify(reply.output, null, 2)}\n`);
	}
	return EXIT_OK;
}
