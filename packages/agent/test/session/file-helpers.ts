import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach } from "vitest";

const folders: string[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
	for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
	for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A fresh session file path in a temporary folder removed after the test. */
export function tempSessionPath(name = "session.jsonl"): string {
	const folder = mkdtempSync(join(tmpdir(), "pi-session-"));
	folders.push(folder);
	return join(folder, name);
}

const childScript = fileURLToPath(new URL("./fixtures/session-child.ts", import.meta.url));

/** Starts the session child (see fixtures/session-child.ts); killed after the test. */
export function startChild(args: string[]): { child: ChildProcess; lines: string[]; waitFor(pattern: RegExp): Promise<string> } {
	const child = spawn(process.execPath, ["--import", "tsx", "--conditions=development", childScript, ...args], { stdio: ["ignore", "pipe", "pipe"] });
	children.push(child);
	const lines: string[] = [];
	let stderr = "";
	let buffered = "";
	const waiters: { pattern: RegExp; resolve(line: string): void; reject(error: Error): void }[] = [];
	child.stderr?.on("data", (chunk: Buffer) => {
		stderr += chunk.toString();
	});
	child.stdout?.on("data", (chunk: Buffer) => {
		buffered += chunk.toString();
		const parts = buffered.split("\n");
		buffered = parts.pop() ?? "";
		for (const line of parts) {
			lines.push(line);
			for (const waiter of waiters.splice(0)) {
				if (waiter.pattern.test(line)) waiter.resolve(line);
				else waiters.push(waiter);
			}
		}
	});
	child.on("exit", (code, signal) => {
		for (const waiter of waiters.splice(0)) waiter.reject(new Error(`child exited (${code ?? signal}) before ${waiter.pattern}: ${stderr}`));
	});
	return {
		child,
		lines,
		waitFor: (pattern) =>
			new Promise((resolve, reject) => {
				const seen = lines.find((line) => pattern.test(line));
				if (seen !== undefined) resolve(seen);
				else if (child.exitCode !== null || child.signalCode !== null) reject(new Error(`child already exited: ${stderr}`));
				else waiters.push({ pattern, resolve, reject });
			}),
	};
}

/** Resolves once the child has exited. */
export function exited(child: ChildProcess): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
	return new Promise((resolve) => child.once("exit", () => resolve()));
}
