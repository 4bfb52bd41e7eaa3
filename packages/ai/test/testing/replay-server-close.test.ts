import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { sseResponse, startReplayServer } from "../../src/testing/index.js";
import { post } from "./read-body.js";

describe("close()", () => {
	it("ends stalled responses at once: the reading client fails instead of hanging", async () => {
		const server = await startReplayServer();
		server.enqueue(sseResponse("data: never finished\n\n", { stallAfterBytes: 5 }), { stallBeforeHeaders: true });
		const stalledBody = expect((await post(server.url)).text()).rejects.toThrow();
		const stalledHeaders = expect(post(server.url)).rejects.toThrow();
		await new Promise((resolve) => setTimeout(resolve, 50)); // let the second request arrive
		expect(server.requests).toHaveLength(2);
		await server.close();
		await stalledBody;
		await stalledHeaders;
		// No time bound: both responses stall for ever, so only close() can have ended them.
	});

	it("cancels chunk delays and is idempotent", async () => {
		const server = await startReplayServer({ chunking: { delayMs: 10_000 } });
		server.enqueue(sseResponse("data: a\n\ndata: b\n\n", { chunking: { minChunkBytes: 2, maxChunkBytes: 2 } }));
		const body = expect((await post(server.url)).text()).rejects.toThrow();
		const closing = server.close();
		expect(server.close()).toBe(closing);
		await closing;
		// No time bound: nine chunks 10 s apart (90 s, past the test timeout) cannot end by themselves; close() ended them.
		await body;
	});

	it("leaves no handle behind: a process that used a stalled response exits by itself", async () => {
		const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL("./stalled-client-child.ts", import.meta.url))], {
			stdio: ["ignore", "pipe", "pipe"],
		});
		let stdout = "";
		let stderr = "";
		child.stdout.on("data", (data: Buffer) => (stdout += data.toString()));
		child.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
		const exit = await new Promise<{ code: number | null; at: number }>((resolve) => {
			const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
			child.on("exit", (code) => {
				clearTimeout(killer);
				resolve({ code, at: Date.now() });
			});
		});
		expect(stderr).toBe("");
		expect(exit.code).toBe(0);
		expect(stdout).toMatch(/^got 11 bytes\nread failed\nclosed \d+\n$/);
		// It exited by itself (code 0 above, not the SIGKILL of the 10 s guard).
	});
});
