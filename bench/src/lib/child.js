/**
 * Child processes for the benchmarks: one-shot runs (cold start, memory) and long-lived workers
 * driven over IPC (throughput), so each library runs in a process of its own.
 */
import { fork, spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The bench package folder: children run here so `@pi/ai` and the reference resolve from bench/node_modules. */
export const BENCH_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Absolute path of a worker script in src/workers. @param {string} name */
export function workerPath(name) {
	return join(BENCH_DIR, "src", "workers", name);
}

/**
 * Runs `node <args>` to completion and measures its wall time from spawn to exit.
 * Rejects when the process exits non-zero, with its stderr in the message.
 * @param {string[]} args arguments after `node`
 * @param {{ env?: NodeJS.ProcessEnv, timeoutMs?: number }} [options]
 * @returns {Promise<{ wallMs: number, stdout: string, stderr: string }>}
 */
export function runNode(args, options = {}) {
	return new Promise((resolve, reject) => {
		const started = process.hrtime.bigint();
		const child = spawn(process.execPath, args, { cwd: BENCH_DIR, env: options.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
		let stdout = "";
		let stderr = "";
		child.stdout.on("data", (part) => (stdout += part));
		child.stderr.on("data", (part) => (stderr += part));
		const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 120_000);
		child.on("error", reject);
		child.on("exit", (code, signal) => {
			const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
			clearTimeout(timer);
			// Let the pipes drain before resolving: 'exit' can come before the last 'data'.
			child.on("close", () => {
				if (code === 0) resolve({ wallMs, stdout, stderr });
				else reject(new Error(`node ${args.join(" ")} exited with ${code ?? signal}: ${stderr.trim().slice(-2000)}`));
			});
		});
	});
}

/**
 * Runs a worker script once and returns the JSON object it prints as its last stdout line.
 * @param {string} script file name in src/workers
 * @param {string[]} args
 * @param {{ execArgv?: string[], timeoutMs?: number }} [options]
 * @returns {Promise<any>}
 */
export async function runWorkerOnce(script, args, options = {}) {
	const { stdout } = await runNode([...(options.execArgv ?? []), workerPath(script), ...args], { timeoutMs: options.timeoutMs });
	const lines = stdout.trim().split("\n");
	return JSON.parse(lines[lines.length - 1] ?? "null");
}

/**
 * A long-lived worker process answering requests over IPC: `call(command, payload)` sends
 * `{ id, command, payload }` and resolves with the worker's `{ id, result }` (or rejects on `{ id, error }`).
 */
export class Worker {
	/**
	 * @param {string} script file name in src/workers
	 * @param {string[]} [args]
	 * @param {string[]} [execArgv] node flags, e.g. `--cpu-prof`
	 */
	constructor(script, args = [], execArgv = []) {
		this.child = fork(workerPath(script), args, { cwd: BENCH_DIR, execArgv, stdio: ["ignore", "inherit", "inherit", "ipc"] });
		/** @type {Map<number, { resolve: (value: any) => void, reject: (error: Error) => void }>} */
		this.pending = new Map();
		this.nextId = 1;
		this.child.on("message", (message) => {
			const waiter = this.pending.get(message.id);
			if (!waiter) return;
			this.pending.delete(message.id);
			if (message.error) waiter.reject(new Error(`${script}: ${message.error}`));
			else waiter.resolve(message.result);
		});
		this.child.on("exit", (code) => {
			for (const waiter of this.pending.values()) waiter.reject(new Error(`${script} exited with ${code}`));
			this.pending.clear();
		});
	}

	/**
	 * @param {string} command
	 * @param {unknown} [payload]
	 * @returns {Promise<any>}
	 */
	call(command, payload) {
		const id = this.nextId++;
		return new Promise((resolve, reject) => {
			this.pending.set(id, { resolve, reject });
			this.child.send({ id, command, payload });
		});
	}

	/** Asks the worker to exit and waits for it. */
	async close() {
		if (this.child.exitCode !== null) return;
		const exited = new Promise((resolve) => this.child.once("exit", resolve));
		this.child.disconnect();
		await exited;
	}
}

/**
 * The worker side of {@link Worker}: answers each IPC request with `handlers[command](payload)`.
 * The process exits when the parent disconnects.
 * @param {Record<string, (payload: any) => unknown>} handlers
 */
export function serveWorker(handlers) {
	process.on("message", async (message) => {
		try {
			const handler = handlers[message.command];
			if (!handler) throw new Error(`unknown command ${message.command}`);
			const result = await handler(message.payload);
			process.send?.({ id: message.id, result });
		} catch (error) {
			process.send?.({ id: message.id, error: error instanceof Error ? error.stack ?? error.message : String(error) });
		}
	});
	process.on("disconnect", () => process.exit(0));
}
