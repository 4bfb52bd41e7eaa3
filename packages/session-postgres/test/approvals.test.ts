import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { approveToolCall, pendingApprovals } from "@pi/agent-core";
import { afterAll, describe, expect, it } from "vitest";
import { createPostgresSessionStore } from "../src/index.js";
import { dropSchema, freshSchemaName, postgresUrl, testPool } from "./helpers/fresh-schema.js";

const pool = testPool();
const schema = freshSchemaName("approve");
const store = createPostgresSessionStore({ connectionString: postgresUrl(), schema });
afterAll(async () => {
	await store.close();
	await dropSchema(pool, schema);
	await pool.end();
});

const worker = fileURLToPath(new URL("./helpers/approval-worker.ts", import.meta.url));

async function runWorker(sessionId: string, mode: "pause" | "continue"): Promise<string[]> {
	const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "--conditions=development", worker, postgresUrl(), schema, sessionId, mode]);
	return stdout.trim().split("\n");
}

describe("tool approval over PostgreSQL", () => {
	it("a worker pauses, another process approves with no agent, a third worker runs the tool once and finishes", async () => {
		const sessionId = randomUUID();
		const paused = await runWorker(sessionId, "pause");
		expect(JSON.parse(paused[0] as string)).toEqual([{ toolCallId: "call_1", toolName: "delete_file", arguments: { path: "tmp/a.log" } }]);

		// The web request: opens the session, shows the request, stores the decision.
		const session = await store.open(sessionId);
		expect(pendingApprovals(session).map((call) => call.toolCallId)).toEqual(["call_1"]);
		await approveToolCall(session, "call_1", { reason: "temp files only" });
		await session.close();

		const finished = await runWorker(sessionId, "continue");
		expect(finished).toEqual(["ran tmp/a.log", "reply Deleted tmp/a.log."]);

		const { rows } = await pool.query(`SELECT type FROM "${schema}".entries WHERE session_id = $1 ORDER BY seq`, [sessionId]);
		const types = rows.map((row: { type: string }) => row.type).filter((type: string) => type !== "model_change" && type !== "thinking_level_change");
		expect(types).toEqual(["message", "message", "tool_approval_request", "tool_approval_decision", "tool_approval_run", "message", "message"]);

		// Done: a later worker finds nothing to approve and nothing to run again.
		const after = await store.open(sessionId);
		expect(pendingApprovals(after)).toEqual([]);
		expect((await after.buildContext()).messages.map((message) => message.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
		await after.close();
	});
});
