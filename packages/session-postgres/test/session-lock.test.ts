import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { SessionLockedError } from "@pi/agent-core";
import { afterAll, describe, expect, it } from "vitest";
import { createPostgresSessionStore } from "../src/index.js";
import { dropSchema, freshSchemaName, postgresUrl, testPool } from "./helpers/fresh-schema.js";

const pool = testPool();
const schema = freshSchemaName("lock");
const store = createPostgresSessionStore({ connectionString: postgresUrl(), schema });
const other = createPostgresSessionStore({ connectionString: postgresUrl(), schema });
afterAll(async () => {
	await store.close();
	await other.close();
	await dropSchema(pool, schema);
	await pool.end();
});

const holdLock = fileURLToPath(new URL("./helpers/hold-lock.ts", import.meta.url));

/** Opens the session, retrying while the lock is still held: the outcome matters, not how long it takes. */
async function openWhenFree(sessionId: string, attempts = 200) {
	for (let attempt = 1; ; attempt++) {
		try {
			return await other.open(sessionId);
		} catch (error) {
			if (!(error instanceof SessionLockedError) || attempt >= attempts) throw error;
			await new Promise((resolve) => setTimeout(resolve, 50));
		}
	}
}

describe("the session lock", () => {
	it("is refused to a second worker with an error naming the holder's process", async () => {
		const sessionId = randomUUID();
		const session = await store.open(sessionId);
		const refused = await other.open(sessionId).catch((error: unknown) => error);
		expect(refused).toBeInstanceOf(SessionLockedError);
		expect((refused as SessionLockedError).holder.pid).toBe(process.pid);
		expect((refused as Error).message).toMatch(new RegExp(`locked by process ${process.pid} on \\S+ \\(server backend \\d+ from 127\\.0\\.0\\.1`));
		await session.close();
		await (await other.open(sessionId)).close();
	});

	it("frees itself when the holding process is SIGKILLed: another worker takes over, and what was written is there", async () => {
		const sessionId = randomUUID();
		const child = spawn(process.execPath, ["--import", "tsx", "--conditions=development", holdLock, postgresUrl(), schema, sessionId], { stdio: ["ignore", "pipe", "inherit"] });
		const [chunk] = (await once(child.stdout, "data")) as [Buffer];
		expect(chunk.toString()).toBe("locked\n");
		await expect(other.open(sessionId)).rejects.toBeInstanceOf(SessionLockedError);
		child.kill("SIGKILL");
		await once(child, "exit");
		const session = await openWhenFree(sessionId);
		expect((await session.buildContext()).messages.map((m) => (m as { content: string }).content)).toEqual(["written before the crash"]);
		await session.close();
	});

	it("frees itself when the holder's connection dies, and the holder's next append fails instead of writing unlocked", async () => {
		const sessionId = randomUUID();
		const session = await store.open(sessionId);
		await session.appendMessage({ role: "user", content: "one", timestamp: 1 });
		// Kill the backend of the lock connection, as a network cut or server restart would.
		await pool.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1", [`pi-session-lock pid=${process.pid} host=${(await import("node:os")).hostname()}`]);
		const taker = await openWhenFree(sessionId);
		await taker.appendMessage({ role: "user", content: "two, by the new driver", timestamp: 2 });
		await expect(session.appendMessage({ role: "user", content: "late write by the old driver", timestamp: 3 })).rejects.toThrow(/lock of session .* was lost|terminat|Connection/i);
		await taker.close();
		await session.close().catch(() => undefined);
		const reopened = await other.open(sessionId);
		expect((await reopened.buildContext()).messages.map((m) => (m as { content: string }).content)).toEqual(["one", "two, by the new driver"]);
		await reopened.close();
	});
});
