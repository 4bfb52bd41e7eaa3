/**
 * Reading standard input: the whole of it for a piped prompt, or one line typed without echo for
 * a secret.
 */
import { CliError, EXIT_INTERRUPTED } from "./cli-error.js";

/** All of standard input as text (UTF-8). Call only when stdin is not a TTY. */
export async function readAllStdin(stdin: NodeJS.ReadStream = process.stdin): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of stdin) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
	return Buffer.concat(chunks).toString("utf8");
}

/**
 * Reads one line from the terminal without echoing it (raw mode: each key arrives as typed, and
 * nothing is drawn). Backspace deletes, Enter ends, Ctrl-C or Ctrl-D on an empty line cancels
 * (a `CliError` with exit code 130). On a non-TTY stdin, the whole input is read instead (the first
 * line), so `echo "$KEY" | pi-ai keys set openai` works.
 *
 * @example
 * const key = await readSecret("API key for openai (input hidden): ");
 */
export async function readSecret(prompt: string, stdin: NodeJS.ReadStream = process.stdin, prompts: NodeJS.WriteStream = process.stderr): Promise<string> {
	if (!stdin.isTTY) return (await readAllStdin(stdin)).split(/\r?\n/)[0]?.trim() ?? "";
	prompts.write(prompt);
	stdin.setRawMode(true);
	stdin.resume();
	stdin.setEncoding("utf8");
	try {
		return await new Promise<string>((resolve, reject) => {
			let value = "";
			let inEscape = false;
			const onData = (text: string) => {
				for (const char of text) {
					// Arrow and function keys arrive as escape sequences (ESC [ … final letter or ~): skip them whole.
					if (inEscape) {
						if (/[A-Za-z~]/.test(char)) inEscape = false;
						continue;
					}
					if (char === "\u001b") {
						inEscape = true;
						continue;
					}
					if (char === "\r" || char === "\n") {
						stdin.off("data", onData);
						resolve(value.trim());
						return;
					}
					if (char === "\u0003" || (char === "\u0004" && value === "")) {
						stdin.off("data", onData);
						reject(new CliError("cancelled", EXIT_INTERRUPTED));
						return;
					}
					if (char === "\u007f" || char === "\b") value = value.slice(0, -1);
					// Other control characters (arrows, escape sequences) are not part of a key.
					else if (char >= " ") value += char;
				}
			};
			stdin.on("data", onData);
		});
	} finally {
		stdin.setRawMode(false);
		stdin.pause();
		prompts.write("\n");
	}
}
