/**
 * The exit codes of `pi-ai`, and the one error type its commands throw for input they refuse.
 *
 * Exit codes (docs/cli.md):
 * - `0`: the reply finished (`stop`, `length`, or the tool loop ended normally);
 * - `1`: the model's reply is an error (the provider's message is shown), or a listing found nothing;
 * - `2`: the command could not run as given: a bad flag, an unknown model, a missing key, an
 *   unreadable attachment or tool module;
 * - `130`: interrupted with Ctrl-C (128 + SIGINT, as shells report it).
 */
export const EXIT_OK = 0;
/** The model's reply ended with `stopReason: "error"`. */
export const EXIT_REPLY_ERROR = 1;
/** A usage error: the command could not run as given. */
export const EXIT_USAGE = 2;
/** Interrupted by Ctrl-C (SIGINT). */
export const EXIT_INTERRUPTED = 130;

/**
 * An error meant for the person at the terminal: its message is printed as is (no stack trace),
 * and the process exits with `exitCode`.
 *
 * @example
 * ```ts
 * throw new CliError("unknown option --foo (see pi-ai --help)");
 * ```
 */
export class CliError extends Error {
	readonly exitCode: number;

	constructor(message: string, exitCode: number = EXIT_USAGE) {
		super(message);
		this.name = "CliError";
		this.exitCode = exitCode;
	}
}
