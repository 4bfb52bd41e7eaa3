/**
 * Shows a run as it happens, for a person: the reply's text streams to standard output, and
 * everything else goes to standard error, so `pi-ai "…" > answer.txt` captures the answer and
 * nothing more:
 *
 * - a spinner until the first token of each model call (TTY only);
 * - thinking, dimmed on a TTY, unless `--no-thinking`;
 * - each tool call with its arguments, and its result.
 *
 * On a terminal, control characters from the model (escape sequences that could set the title,
 * write the clipboard or hide text) are shown escaped (`\x1b`); a pipe or file gets the bytes as
 * they came.
 */
import type { AgentEvent } from "@pi/agent-core";
import { escapeControlCharacters } from "./terminal/escape-control-characters.js";
import { Spinner } from "./terminal/spinner.js";
import { createStyle, type OutputStream, type Style } from "./terminal/style.js";

/** What a {@link ReplyPrinter} writes to and shows. */
export interface ReplyPrinterOptions {
	stdout: OutputStream;
	stderr: OutputStream;
	/** Show thinking (on stderr). */
	showThinking: boolean;
	/** Shown next to the spinner, e.g. the model id. */
	label: string;
	env?: NodeJS.ProcessEnv;
}

const RESULT_PREVIEW_CHARS = 200;

/**
 * Turns agent events into terminal output. Call {@link handle} for every event and
 * {@link finish} once the run is over (or interrupted).
 *
 * @example
 * ```ts
 * const printer = new ReplyPrinter({ stdout: process.stdout, stderr: process.stderr, showThinking: true, label: "gpt-4o" });
 * agent.subscribe((event) => printer.handle(event));
 * ```
 */
export class ReplyPrinter {
	private readonly spinner: Spinner;
	private readonly errStyle: Style;
	/** Whether the last thing written to stdout left its line open. */
	private stdoutOpenLine = false;
	/** Whether thinking text is open on stderr (its line not yet ended). */
	private thinkingOpen = false;
	private wroteText = false;

	/** Model text made safe for each stream: escaped on a terminal, as is elsewhere. */
	private readonly forStdout: (text: string) => string;
	private readonly forStderr: (text: string) => string;

	constructor(private readonly options: ReplyPrinterOptions) {
		this.spinner = new Spinner(options.stderr, options.label);
		this.errStyle = createStyle(options.stderr, options.env);
		const identity = (text: string) => text;
		this.forStdout = options.stdout.isTTY === true ? escapeControlCharacters : identity;
		this.forStderr = options.stderr.isTTY === true ? escapeControlCharacters : identity;
	}

	handle(event: AgentEvent): void {
		switch (event.type) {
			case "message_start":
				if (event.message.role === "assistant") this.spinner.start();
				return;
			case "message_update":
				this.onAssistantEvent(event.assistantMessageEvent);
				return;
			case "message_end":
				if (event.message.role === "assistant") {
					this.spinner.stop();
					this.closeThinking();
					this.endStdoutLine();
				}
				return;
			case "tool_execution_start":
				this.spinner.stop();
				this.endStdoutLine();
				this.options.stderr.write(`${this.errStyle.cyan(`→ ${this.forStderr(event.toolName)}`)} ${this.errStyle.dim(this.forStderr(preview(JSON.stringify(event.args ?? {}))))}\n`);
				return;
			case "tool_execution_end": {
				const text = this.forStderr(resultText(event.result));
				const line = event.isError ? this.errStyle.red(`  ✗ ${preview(text)}`) : `${this.errStyle.green("  ←")} ${preview(text)}`;
				this.options.stderr.write(`${line}\n`);
				return;
			}
			default:
				return;
		}
	}

	/** Stops the spinner and ends any open line; call once the run is over. */
	finish(): void {
		this.spinner.stop();
		this.closeThinking();
		this.endStdoutLine();
	}

	/** Whether any reply text reached stdout. */
	get printedText(): boolean {
		return this.wroteText;
	}

	private onAssistantEvent(event: Extract<AgentEvent, { type: "message_update" }>["assistantMessageEvent"]): void {
		switch (event.type) {
			case "text_delta":
				if (event.delta === "") return;
				this.spinner.stop();
				this.closeThinking();
				this.options.stdout.write(this.forStdout(event.delta));
				this.stdoutOpenLine = !event.delta.endsWith("\n");
				this.wroteText = true;
				return;
			case "thinking_delta":
				if (!this.options.showThinking || event.delta === "") return;
				this.spinner.stop();
				this.options.stderr.write(this.errStyle.dim(this.forStderr(event.delta)));
				this.thinkingOpen = true;
				return;
			case "thinking_end":
				this.closeThinking();
				return;
			case "toolcall_start":
				this.spinner.stop();
				return;
			default:
				return;
		}
	}

	/** Ends the thinking with a blank line, so the answer starts on a line of its own. */
	private closeThinking(): void {
		if (!this.thinkingOpen) return;
		this.thinkingOpen = false;
		this.options.stderr.write("\n\n");
	}

	private endStdoutLine(): void {
		if (!this.stdoutOpenLine) return;
		this.stdoutOpenLine = false;
		this.options.stdout.write("\n");
	}
}

function preview(text: string): string {
	const oneLine = text.replace(/\s*\n\s*/g, " ");
	return oneLine.length > RESULT_PREVIEW_CHARS ? `${oneLine.slice(0, RESULT_PREVIEW_CHARS)}…` : oneLine;
}

/** The text blocks of a tool result, joined (images shown as a marker). */
function resultText(result: unknown): string {
	const content = (result as { content?: { type: string; text?: string }[] } | undefined)?.content;
	if (!Array.isArray(content)) return "";
	return content.map((block) => (block.type === "text" ? (block.text ?? "") : `[${block.type}]`)).join(" ");
}
