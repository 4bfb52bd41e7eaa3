/**
 * A terminal a test can type into and read back: a detached tmux session on a private server
 * socket (`tmux -L <name>`), so it never touches the user's tmux, killed by `close()`.
 */
import { execFile } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { CLI } from "./run-cli.js";

const run = promisify(execFile);

/** Makes `<dir>/pi-ai`, a shell shim for the built CLI, so the terminal types `pi-ai` like a user. */
export function installShim(dir: string): string {
	mkdirSync(dir, { recursive: true });
	const shim = join(dir, "pi-ai");
	writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
	chmodSync(shim, 0o755);
	return dir;
}

export class Terminal {
	private constructor(private readonly socket: string) {}

	/**
	 * Starts a shell (`sh`, no profile) in a 160×50 terminal with exactly `env` (plus TERM).
	 */
	static async start(socket: string, env: Record<string, string | undefined>): Promise<Terminal> {
		const assignments = Object.entries({ ...env, TERM: "xterm-256color", PS1: "$ " })
			.filter(([, value]) => value !== undefined)
			.map(([name, value]) => `${name}=${value}`);
		await run("tmux", ["-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", "cli", "-x", "160", "-y", "50", "env", "-i", ...assignments, "sh"]);
		return new Terminal(socket);
	}

	/** Types `text` literally (no key names). */
	async type(text: string): Promise<void> {
		await run("tmux", ["-L", this.socket, "send-keys", "-t", "cli", "-l", text]);
	}

	/** Presses keys by name: `Enter`, `C-c`. */
	async press(...keys: string[]): Promise<void> {
		await run("tmux", ["-L", this.socket, "send-keys", "-t", "cli", ...keys]);
	}

	/** The screen's text; with `escapes`, with its colours and attributes as escape sequences. */
	async screen(options: { escapes?: boolean } = {}): Promise<string> {
		const args = ["-L", this.socket, "capture-pane", "-p", "-J", "-t", "cli"];
		if (options.escapes) args.push("-e");
		return (await run("tmux", args)).stdout;
	}

	/**
	 * Polls the screen until `test` accepts it, and returns that screen. Gives up (throwing with
	 * the last screen) after `limitMs`, a safety net for a hung CLI, not a speed requirement.
	 */
	async waitFor(test: (screen: string) => boolean, options: { escapes?: boolean; limitMs?: number } = {}): Promise<string> {
		const deadline = Date.now() + (options.limitMs ?? 20_000);
		let screen = "";
		while (Date.now() < deadline) {
			screen = await this.screen(options);
			if (test(screen)) return screen;
			await new Promise((resolve) => setTimeout(resolve, 25));
		}
		throw new Error(`the terminal never showed what the test waited for; last screen:\n${screen}`);
	}

	/** The pane's title, as the programs in it set it (OSC 0 / OSC 2). */
	async title(): Promise<string> {
		return (await run("tmux", ["-L", this.socket, "display-message", "-p", "-t", "cli", "#{pane_title}"])).stdout.trimEnd();
	}

	/** Kills this private tmux server and everything in it. */
	async close(): Promise<void> {
		await run("tmux", ["-L", this.socket, "kill-server"]).catch(() => {});
	}
}
