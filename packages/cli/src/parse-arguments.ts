/**
 * Argument parsing for every command, over Node's own `util.parseArgs`: no dependency to load at
 * start-up, strict about unknown flags, and its errors rewritten into one line that names the
 * bad flag and the command's help.
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { CliError } from "./cli-error.js";
import { closestMatches } from "./closest-matches.js";

type Options = NonNullable<ParseArgsConfig["options"]>;

/** The parsed values and positionals of one command line. */
export interface ParsedArguments<T extends Options> {
	values: { [K in keyof T]?: T[K] extends { type: "boolean" } ? boolean : T[K] extends { multiple: true } ? string[] : string };
	positionals: string[];
}

/**
 * Parses `argv` against `options`; a bad flag is a `CliError` (exit 2) such as
 * `unknown option --foo (see pi-ai models --help)`.
 *
 * @example
 * parseArguments(["--json", "gpt"], { json: { type: "boolean" } }, "pi-ai models") // { values: { json: true }, positionals: ["gpt"] }
 */
export function parseArguments<T extends Options>(argv: string[], options: T, command: string): ParsedArguments<T> {
	try {
		const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
		return { values: values as ParsedArguments<T>["values"], positionals };
	} catch (error) {
		throw new CliError(`${describeParseError(error as Error & { code?: string }, options)} (see ${command} --help)`);
	}
}

function describeParseError(error: Error & { code?: string }, options: Options): string {
	const quoted = /'([^']+)'/.exec(error.message)?.[1] ?? "";
	switch (error.code) {
		case "ERR_PARSE_ARGS_UNKNOWN_OPTION": {
			// "--modle" is one letter from "--model": name it ("-x" alone is too short to guess from).
			const typed = quoted.replace(/=.*$/, "");
			const near = typed.startsWith("--") ? closestMatches(typed.slice(2), Object.keys(options), 1) : [];
			return `unknown option ${quoted}${near[0] ? `; did you mean --${near[0]}?` : ""}`;
		}
		case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE": {
			// "Option '-m, --model <value>' argument missing" or "Option '--json' does not take an argument".
			const flag = /--[\w-]+/.exec(quoted)?.[0] ?? quoted;
			return error.message.includes("argument missing") ? `option ${flag} needs a value` : `option ${flag} takes no value`;
		}
		default:
			return error.message;
	}
}
