import type { ChildProcess } from "node:child_process";
import spawn from "cross-spawn";
import { getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { McpStdioServer } from "./types.js";

/** How many of the child's last standard-error lines an error message quotes. */
const STDERR_LINES_KEPT = 10;
/** Each step of `close()`: stdin closed, then SIGTERM, then SIGKILL. */
const CLOSE_STEP_MS = 2_000;
/** How long the pipes of a child that exited may stay open (held by a grandchild) before they are let go. */
const PIPE_DRAIN_MS = 500;

/** How the child process ended: its exit code or signal. */
export interface ChildExit {
	code: number | null;
	signal: NodeJS.Signals | null;
}

/**
 * The MCP stdio transport (newline-delimited JSON-RPC over the child's stdin and stdout, framed by
 * the SDK's own `ReadBuffer`), written here rather than taken from the SDK because its
 * `StdioClientTransport` does not report how the child ended: an error must name the exit code
 * and the last lines of standard error. It spawns like the SDK does (`cross-spawn`, so `npx`
 * works on Windows too; the SDK's default environment plus `env`), keeps the last
 * {@link STDERR_LINES_KEPT} lines of stderr, and records the exit before `onclose` runs.
 */
export class StdioTransport implements Transport {
	onclose?: () => void;
	onerror?: (error: Error) => void;
	onmessage?: (message: JSONRPCMessage) => void;

	/** Set once the child has ended (or could not start). */
	exit: ChildExit | undefined;
	/** `close()` was called: an exit after it is this side's doing, not the server's failure. */
	closing = false;
	/** Why the child could not start (e.g. `spawn npx ENOENT`). */
	spawnError: Error | undefined;

	private child: ChildProcess | undefined;
	private readonly readBuffer = new ReadBuffer();
	private readonly stderrLines: string[] = [];
	private stderrPartial = "";
	private closed: Promise<void> | undefined;

	constructor(private readonly server: McpStdioServer) {}

	/** The child's process id, while it runs. */
	get pid(): number | undefined {
		return this.child?.pid;
	}

	/** The last lines the child wrote to standard error, oldest first. */
	lastStderrLines(): string[] {
		const lines = [...this.stderrLines];
		if (this.stderrPartial.trim()) lines.push(this.stderrPartial);
		return lines.slice(-STDERR_LINES_KEPT);
	}

	start(): Promise<void> {
		if (this.child) return Promise.reject(new Error("StdioTransport already started"));
		return new Promise((resolve, reject) => {
			const child = spawn(this.server.command, this.server.args ?? [], {
				env: { ...getDefaultEnvironment(), ...this.server.env },
				cwd: this.server.cwd,
				stdio: ["pipe", "pipe", "pipe"],
				shell: false,
				windowsHide: true,
			});
			this.child = child;
			child.once("spawn", () => resolve());
			child.once("error", (error) => {
				// Before "spawn" this is a failed start (no such command, no permission); after, a
				// failed kill or IPC problem, which the close that follows reports.
				if (!this.exit) {
					this.spawnError = error;
					reject(error);
				}
				this.onerror?.(error);
			});
			// A grandchild (the server that `npx` starts) may keep the pipes open after the child
			// exited, and "close" would never come: once the child is gone, give its pipes a moment
			// to drain, then let go of them.
			child.once("exit", () => {
				setTimeout(() => {
					child.stdin?.destroy();
					child.stdout?.destroy();
					child.stderr?.destroy();
				}, PIPE_DRAIN_MS).unref();
			});
			// "close" (not "exit") comes after stdout and stderr are drained, so the last lines are in.
			child.once("close", (code, signal) => {
				this.exit = { code, signal };
				this.child = undefined;
				this.onclose?.();
			});
			child.stdin?.on("error", (error) => this.onerror?.(error));
			child.stdout?.on("data", (chunk: Buffer) => {
				this.readBuffer.append(chunk);
				this.drainMessages();
			});
			child.stderr?.setEncoding("utf8");
			child.stderr?.on("data", (text: string) => this.keepStderr(text));
		});
	}

	send(message: JSONRPCMessage): Promise<void> {
		return new Promise((resolve, reject) => {
			const stdin = this.child?.stdin;
			if (!stdin || !stdin.writable) {
				reject(new Error("Not connected"));
				return;
			}
			if (stdin.write(serializeMessage(message))) resolve();
			else stdin.once("drain", resolve);
		});
	}

	/** Closes stdin, then sends SIGTERM and SIGKILL, {@link CLOSE_STEP_MS} apart, until the child is gone. */
	close(): Promise<void> {
		this.closing = true;
		this.closed ??= this.stop();
		return this.closed;
	}

	private async stop(): Promise<void> {
		const child = this.child;
		// A child that never started (no such command) has nothing to end.
		if (child && this.exit === undefined && this.spawnError === undefined) {
			const ended = new Promise<void>((resolve) => child.once("close", () => resolve()));
			const step = () => new Promise<void>((resolve) => setTimeout(resolve, CLOSE_STEP_MS).unref());
			child.stdin?.end();
			for (const signal of ["SIGTERM", "SIGKILL"] as const) {
				await Promise.race([ended, step()]);
				if (this.exit !== undefined) break;
				child.kill(signal);
			}
			await ended;
		}
		this.readBuffer.clear();
	}

	private drainMessages(): void {
		for (;;) {
			let message: JSONRPCMessage | null;
			try {
				message = this.readBuffer.readMessage();
			} catch (error) {
				// A line that is not JSON-RPC (a server printing logs to stdout): report, keep reading.
				this.onerror?.(error instanceof Error ? error : new Error(String(error)));
				continue;
			}
			if (message === null) return;
			this.onmessage?.(message);
		}
	}

	private keepStderr(text: string): void {
		const lines = (this.stderrPartial + text).split(/\r?\n/);
		this.stderrPartial = lines.pop() ?? "";
		for (const line of lines) {
			if (!line.trim()) continue;
			this.stderrLines.push(line);
			if (this.stderrLines.length > STDERR_LINES_KEPT) this.stderrLines.shift();
		}
		// A process that writes one endless line must not grow this buffer without bound.
		if (this.stderrPartial.length > 4_096) this.stderrPartial = this.stderrPartial.slice(-4_096);
	}
}
