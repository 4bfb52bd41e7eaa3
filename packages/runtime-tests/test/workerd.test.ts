import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadFixture, type ReplayServer, sseResponse, startReplayServer } from "@pi/ai/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleForBrowser, packageDir } from "./browser-bundle.js";
import { apis } from "./models.js";

// Cloudflare's runtime, workerd (the npm package ships the binary), runs a worker bundled from the
// packages' sources, without nodejs_compat: only Web APIs.
let replay: ReplayServer;
let workerd: ChildProcess;
let workerUrl: string;
let dir: string;
const stderr: string[] = [];

async function freePort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const address = server.address();
	await new Promise((resolve) => server.close(resolve));
	if (address === null || typeof address === "string") throw new Error("no free port");
	return address.port;
}

function config(port: number): string {
	return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    # The replay server is on loopback, which the default outbound network refuses.
    (name = "loopback", network = (allow = ["local", "private"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "worker.js")],
  compatibilityDate = "2025-06-01",
  globalOutbound = "loopback",
);
`;
}

beforeAll(async () => {
	const bundle = await bundleForBrowser(`export { default } from "./test/worker/worker.ts";`, { conditions: ["development", "workerd", "worker", "browser"] });
	expect(bundle.builtinImports).toEqual([]);
	dir = mkdtempSync(join(tmpdir(), "pi-workerd-"));
	writeFileSync(join(dir, "worker.js"), bundle.code);
	const port = await freePort();
	writeFileSync(join(dir, "config.capnp"), config(port));
	replay = await startReplayServer();
	workerd = spawn(join(packageDir, "node_modules/.bin/workerd"), ["serve", join(dir, "config.capnp")], { stdio: ["ignore", "ignore", "pipe"] });
	workerd.stderr?.on("data", (part: Buffer) => stderr.push(part.toString()));
	workerUrl = `http://127.0.0.1:${port}`;
	// Ready when the socket accepts: retry the connection (not a clock), a bounded number of times.
	for (let attempt = 0; ; attempt += 1) {
		if (workerd.exitCode !== null) throw new Error(`workerd exited ${workerd.exitCode}: ${stderr.join("")}`);
		const ok = await fetch(`${workerUrl}/ready`, { method: "HEAD" }).then(
			() => true,
			() => false,
		);
		if (ok) break;
		if (attempt > 200) throw new Error(`workerd never listened: ${stderr.join("")}`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	// The HEAD above reached the worker and took a scripted answer or none: start clean.
	replay.reset();
});

afterAll(async () => {
	workerd?.kill();
	await replay?.close();
	if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("@pi/ai and @pi/agent-core in workerd", () => {
	for (const api of apis) {
		it(`a worker streams a recorded ${api} capture and returns the final message`, async () => {
			replay.reset();
			replay.enqueue(sseResponse(loadFixture(api, "text-basic")));
			const response = await fetch(`${workerUrl}/?api=${api}&replay=${encodeURIComponent(replay.url)}`);
			const text = await response.text();
			expect(response.status, `${text} ${stderr.join("")}`).toBe(200);
			const { message, events, agentLoaded } = JSON.parse(text);
			expect(message.stopReason).toBe("stop");
			expect(message.errorMessage).toBeUndefined();
			expect(message.api).toBe(api);
			expect(message.content.some((block: { type: string; text?: string }) => block.type === "text" && (block.text ?? "").length > 0)).toBe(true);
			expect(events[0]).toBe("start");
			expect(events.at(-1)).toBe("done");
			expect(agentLoaded).toBe(true);
			expect(replay.requests).toHaveLength(1);
			expect(replay.requests[0]?.method).toBe("POST");
		});
	}
});
