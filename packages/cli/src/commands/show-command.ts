/**
 * `pi-ai show ID|PATH [--json]`: prints one conversation, the active path of its log.
 */
import type { AgentMessage } from "@pi/agent-core";
import { readSessionFileInfo } from "@pi/agent-core/node";
import type { AssistantMessage, ToolResultMessage, UserMessage } from "@pi/ai";
import { CliError, EXIT_OK } from "../cli-error.js";
import { parseArguments } from "../parse-arguments.js";
import { resolveSessionRef } from "../session-files.js";
import { recordedModel } from "../conversation.js";
import { nonCatalogBaseUrl, openForReading, userText } from "../session-summary.js";
import { escapeControlCharacters as safe } from "../terminal/escape-control-characters.js";
import { createStyle, type Style } from "../terminal/style.js";
import { formatCost } from "../usage-summary.js";
import { formatDate, modelLabel } from "./sessions-command.js";

/** Runs `pi-ai show`; resolves to the exit code. */
export async function showCommand(argv: string[]): Promise<number> {
	const { values, positionals } = parseArguments(argv, { json: { type: "boolean" } }, "pi-ai show");
	if (positionals.length !== 1) throw new CliError("pi-ai show takes one session id or path (pi-ai sessions lists them)");
	const { path } = resolveSessionRef(positionals[0] ?? "");
	const info = await readSessionFileInfo(path).catch((error: NodeJS.ErrnoException) => {
		throw new CliError(error.code === "ENOENT" ? `no session file at ${path}` : error.message);
	});
	const session = await openForReading(path).catch((error: Error) => {
		throw new CliError(error.message);
	});
	try {
		const { messages } = await session.buildContext();
		if (values.json) {
			process.stdout.write(`${JSON.stringify({ id: session.id, path, messages }, null, 2)}\n`);
			return EXIT_OK;
		}
		const style = createStyle(process.stdout);
		const baseUrl = nonCatalogBaseUrl(recordedModel(await session.path()));
		const model = `${modelLabel(info) ?? "no model"}${baseUrl ? ` at ${baseUrl}` : ""}`;
		process.stdout.write(style.dim(safe(`session ${session.id} · ${formatDate(info.createdAt)} · ${model} · ${formatCost(info.cost)}`) + "\n"));
		for (const message of messages) process.stdout.write(renderMessage(message, style));
		return EXIT_OK;
	} finally {
		await session.close();
	}
}

/**
 * One message as text: the prompt after "> ", the reply as is, thinking dimmed, tools as arrows.
 * Control characters are escaped (`\x1b`): a session file may come from anywhere.
 */
export function renderMessage(message: AgentMessage, style: Style): string {
	switch ((message as { role?: string }).role) {
		case "user":
			return `\n${style.bold(`> ${safe(userText(message as UserMessage)).replace(/\n/g, "\n> ")}`)}\n\n`;
		case "assistant": {
			const reply = message as AssistantMessage;
			let text = "";
			for (const block of reply.content) {
				if (block.type === "text") text += `${safe(block.text)}\n`;
				else if (block.type === "thinking" && block.thinking) text += `${style.dim(safe(block.thinking))}\n\n`;
				else if (block.type === "toolCall") text += `${style.cyan(`→ ${safe(block.name)}`)} ${style.dim(safe(JSON.stringify(block.arguments)))}\n`;
			}
			if (reply.stopReason === "aborted") text += `${style.yellow("[interrupted]")}\n`;
			if (reply.stopReason === "error") text += `${style.red(`[error: ${safe(reply.errorMessage ?? "unknown")}]`)}\n`;
			return text;
		}
		case "toolResult": {
			const result = message as ToolResultMessage;
			const text = safe(result.content.map((block) => (block.type === "text" ? block.text : "[image]")).join(" "));
			return `${result.isError ? style.red(`  ✗ ${text}`) : `${style.green("  ←")} ${text}`}\n`;
		}
		default:
			return "";
	}
}
