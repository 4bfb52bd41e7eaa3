/**
 * The command dispatcher. It imports only the help texts and the error type up front; every
 * command (and with it `@pi/ai`, `@pi/agent-core`) loads on demand, so `pi-ai --help` costs almost
 * nothing over bare Node.
 *
 * A command is recognised only as the first argument: `pi-ai models` lists models, while
 * `pi-ai -m x models` and `pi-ai -- models` send the word "models" as a prompt.
 */
import { readFileSync } from "node:fs";
import { CliError, EXIT_OK, EXIT_USAGE } from "./cli-error.js";
import { editDistance } from "./closest-matches.js";
import { HELP } from "./help-text.js";

type Command = (argv: string[]) => Promise<number>;

const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
	models: async () => (await import("./commands/models-command.js")).modelsCommand,
	keys: async () => (await import("./commands/keys-command.js")).keysCommand,
	sessions: async () => (await import("./commands/sessions-command.js")).sessionsCommand,
	show: async () => (await import("./commands/show-command.js")).showCommand,
};

/** True when `argv` asks for help before any `--`. */
function wantsHelp(argv: readonly string[]): boolean {
	for (const arg of argv) {
		if (arg === "--") return false;
		if (arg === "--help" || arg === "-h") return true;
	}
	return false;
}

/**
 * Runs `pi-ai` with `argv` (without `node` and the script) and resolves to the exit code. Errors
 * meant for the user (`CliError`) are printed as one line; anything else is a bug, printed with
 * its message only and exit code 1.
 *
 * @example
 * ```ts
 * process.exitCode = await main(["models", "haiku"]);
 * ```
 */
export async function main(argv: string[]): Promise<number> {
	const [first = "", ...rest] = argv;
	try {
		if (first === "help") return printHelp(rest[0] ?? "");
		if (first === "--version") return printVersion();
		const command = Object.hasOwn(COMMANDS, first) ? COMMANDS[first] : undefined;
		if (command) {
			if (wantsHelp(rest)) return printHelp(first);
			return await (await command())(rest);
		}
		if (wantsHelp(argv)) return printHelp("");
		const { promptCommand } = await import("./commands/prompt-command.js");
		return await promptCommand(argv, nearCommand(first));
	} catch (error) {
		return reportError(error);
	}
}

/**
 * The command `word` is one edit away from (`model`, `sesions`), compared without case; words of
 * fewer than four letters (`how`, `key`) and a command's name in another case (`Show me …`) are
 * prompts.
 */
export function nearCommand(word: string): string | undefined {
	const typed = word.toLowerCase();
	if (typed.length < 4 || typed.startsWith("-")) return undefined;
	const commands = [...Object.keys(COMMANDS), "help"];
	if (commands.includes(typed)) return undefined;
	return commands.find((command) => editDistance(typed, command) === 1);
}

/** `pi-ai --version`: the package's version. */
function printVersion(): number {
	process.stdout.write(`${packageVersion()}\n`);
	return EXIT_OK;
}

/** The version in @pi/cli's package.json, found from this module (src/, dist/ or dist/chunks/). */
function packageVersion(): string {
	for (const relative of ["../package.json", "../../package.json"]) {
		try {
			const manifest = JSON.parse(readFileSync(new URL(relative, import.meta.url), "utf8")) as { name?: string; version?: string };
			if (manifest.name === "@pi/cli" && manifest.version) return manifest.version;
		} catch {
			// not here: try the next folder up
		}
	}
	return "unknown";
}

function printHelp(topic: string): number {
	const text = Object.hasOwn(HELP, topic) ? HELP[topic] : undefined;
	if (text === undefined) {
		process.stderr.write(`pi-ai: no help for "${topic}"; commands: ${Object.keys(HELP).filter(Boolean).join(", ")}\n`);
		return EXIT_USAGE;
	}
	process.stdout.write(text);
	return EXIT_OK;
}

/** Prints an error for a person: the message, never a stack trace. */
export function reportError(error: unknown): number {
	if (error instanceof CliError) {
		process.stderr.write(`pi-ai: ${error.message}\n`);
		return error.exitCode;
	}
	const message = error instanceof Error ? error.message : String(error);
	process.stderr.write(`pi-ai: unexpected error: ${message}\n`);
	return 1;
}
