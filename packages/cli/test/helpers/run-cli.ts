/**
 * Runs the built `pi-ai` (dist/bin.js) as a child process with a private home: its own config and
 * data folders, no API keys, no colours forced, nothing inherited that could change what it does.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The built binary. */
export const CLI = fileURLToPath(new URL("../../dist/bin.js", import.meta.url));

/** A scratch home for one test: config and data folders, removed by `remove()`. */
export interface TempHome {
	dir: string;
	configHome: string;
	dataHome: string;
	/** The environment for the child: this home, no keys, plus `extra`. */
	env(extra?: Record<string, string>): NodeJS.ProcessEnv;
	remove(): void;
}

/** Variables a user's shell may have that would change the CLI's behaviour under test. */
const STRIPPED = /(_API_KEY|_OAUTH_TOKEN|_BASE_URL)$|^(PI_|XDG_|NO_COLOR$|FORCE_COLOR$|HTTPS?_PROXY$|https?_proxy$|NODE_OPTIONS$)/;

export function tempHome(): TempHome {
	const dir = mkdtempSync(join(tmpdir(), "pi-cli-test-"));
	const configHome = join(dir, "config");
	const dataHome = join(dir, "data");
	return {
		dir,
		configHome,
		dataHome,
		env(extra = {}) {
			const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !STRIPPED.test(name)));
			return { ...base, HOME: dir, XDG_CONFIG_HOME: configHome, XDG_DATA_HOME: dataHome, ...extra };
		},
		remove() {
			rmSync(dir, { recursive: true, force: true });
		},
	};
}

/** What a finished run printed and how it ended. */
export interface CliResult {
	code: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
}

/** Options of {@link runCli}. */
export interface RunOptions {
	env: NodeJS.ProcessEnv;
	/** Written to stdin, which is then closed (default: closed at once, empty). */
	input?: string;
	cwd?: string;
}

/** Starts the CLI; stdin stays open until the caller ends it. */
export function spawnCli(args: readonly string[], options: Omit<RunOptions, "input">): ChildProcessWithoutNullStreams {
	return spawn(process.execPath, [CLI, ...args], { env: options.env, cwd: options.cwd, stdio: "pipe" });
}

/** Collects a child's output and resolves when it exits. */
export function finished(child: ChildProcessWithoutNullStreams): Promise<CliResult> {
	let stdout = "";
	let stderr = "";
	child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
	child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
	return new Promise((resolve, reject) => {
		child.on("error", reject);
		child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
	});
}

/** Runs the CLI to completion. */
export function runCli(args: readonly string[], options: RunOptions): Promise<CliResult> {
	const child = spawnCli(args, options);
	const result = finished(child);
	child.stdin.end(options.input ?? "");
	return result;
}

/** Resolves once `stream` has printed text matching `pattern`. */
export function waitForOutput(stream: NodeJS.ReadableStream, pattern: RegExp): Promise<string> {
	return new Promise((resolve) => {
		let seen = "";
		const onData = (chunk: Buffer | string) => {
			seen += chunk.toString();
			if (pattern.test(seen)) {
				stream.off("data", onData);
				resolve(seen);
			}
		};
		stream.on("data", onData);
	});
}
