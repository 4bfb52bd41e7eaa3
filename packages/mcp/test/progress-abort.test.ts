/**
 * Progress and abort through an `Agent`: server-everything's long-running operation reports
 * progress, which arrives as `tool_execution_update` events; aborting the run sends
 * `notifications/cancelled` for the request in flight (the fixture server records what it got)
 * and the tool result is the aborted one.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { connectMcp } from "../src/index.js";
import { runScripted, toolEnds } from "./helpers/scripted-agent.js";
import { everythingStdio, fixtureStdio } from "./helpers/servers.js";

const work = mkdtempSync(join(tmpdir(), "pi-mcp-abort-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("progress", () => {
	it("each notifications/progress becomes a tool_execution_update, before the tool's end", async () => {
		const server = await connectMcp(everythingStdio());
		try {
			const tools = await server.tools({ include: ["trigger-long-running-operation"] });
			const { events, run } = runScripted(tools, [{ name: "trigger-long-running-operation", arguments: { duration: 0.3, steps: 3 } }]);
			await run;
			const updates = events.flatMap((event) => (event.type === "tool_execution_update" ? [event.partialResult] : []));
			expect(updates).toEqual([1, 2, 3].map((step) => ({ content: [{ type: "text", text: `progress ${step}/3` }], details: { progress: step, total: 3 } })));
			const types = events.map((event) => event.type).filter((type) => type.startsWith("tool_execution"));
			expect(types).toEqual(["tool_execution_start", "tool_execution_update", "tool_execution_update", "tool_execution_update", "tool_execution_end"]);
			expect(toolEnds(events)[0]?.text).toBe("Long running operation completed. Duration: 0.3 seconds, Steps: 3.");
		} finally {
			await server.close();
		}
	});
});

/** Resolves once the fixture server's log has a record with `key` (polled: the server is another process). */
async function untilLogged(log: string, key: string): Promise<void> {
	await expect.poll(() => readFileSync(log, "utf8"), { timeout: 20_000, interval: 20 }).toContain(`"${key}"`);
}

describe("abort", () => {
	it("aborting mid-call ends the tool with the aborted result, and the run with agent_end", async () => {
		const server = await connectMcp(everythingStdio());
		try {
			const tools = await server.tools({ include: ["trigger-long-running-operation"] });
			const { events, run } = runScripted(tools, [{ name: "trigger-long-running-operation", arguments: { duration: 30, steps: 300 } }], (event, agent) => {
				if (event.type === "tool_execution_update") agent.abort();
			});
			await run;
			expect(toolEnds(events)).toEqual([{ name: "trigger-long-running-operation", isError: true, text: "Tool execution was aborted.", details: {} }]);
			expect(events.at(-1)?.type).toBe("agent_end");
			// The connection is still usable: the abort cancelled one request, not the session.
			const [echo] = await server.tools({ include: ["echo"] });
			await expect(echo!.execute("call-2", { message: "after" })).resolves.toMatchObject({ content: [{ type: "text", text: "Echo: after" }] });
		} finally {
			await server.close();
		}
	});

	it("sends notifications/cancelled for the request in flight: the server sees its own request cancelled", async () => {
		const log = join(work, "cancelled.jsonl");
		writeFileSync(log, "");
		const server = await connectMcp(fixtureStdio(log));
		try {
			const tools = await server.tools({ include: ["wait-for-cancel"] });
			const { events, run } = runScripted(tools, [{ name: "wait-for-cancel", arguments: {} }], (event, agent) => {
				// Abort once the server has the call in hand (its "started" line), not at a guessed time.
				if (event.type === "tool_execution_start") void untilLogged(log, "started").then(() => agent.abort());
			});
			await run;
			expect(toolEnds(events).map((end) => end.text)).toEqual(["Tool execution was aborted."]);
			await untilLogged(log, "cancelled");
			const records = readFileSync(log, "utf8").trim().split("\n").map((line) => JSON.parse(line) as { started?: number; cancelled?: number });
			// tools/list was request 1 after initialize (0): the call is request 2, and it is the one cancelled.
			expect(records).toEqual([{ started: 2 }, expect.objectContaining({ cancelled: 2 })]);
		} finally {
			await server.close();
		}
	});
});
