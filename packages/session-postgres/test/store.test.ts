import { randomUUID } from "node:crypto";
import { SessionConflictError, SessionCorruptError, SessionLockedError, type SessionEntry } from "@pi/agent-core";
import { afterAll, describe, expect, it } from "vitest";
import { createPostgresSessionStore } from "../src/index.js";
import { dropSchema, freshSchemaName, postgresUrl, testPool } from "./helpers/fresh-schema.js";

const pool = testPool();
const schema = freshSchemaName("store");
const store = createPostgresSessionStore({ pool, schema });
afterAll(async () => {
	await dropSchema(pool, schema);
	await pool.end();
});

const user = (content: string) => ({ role: "user" as const, content, timestamp: Date.now() });
const entry = (id: string, parentId: string | null, extra: Partial<SessionEntry> = {}): SessionEntry =>
	({ type: "message", id, parentId, timestamp: 1, message: user(`text ${id}`), ...extra }) as SessionEntry;

describe("createPostgresSessionStore", () => {
	it("needs a pool or a connection string, and a schema name PostgreSQL can hold", () => {
		expect(() => createPostgresSessionStore({} as never)).toThrow(/give "pool" \(a pg.Pool\) or "connectionString"/);
		expect(() => createPostgresSessionStore({ pool, connectionString: postgresUrl() })).toThrow(/not both/);
		expect(() => createPostgresSessionStore({ pool, schema: "" })).toThrow(/"schema" must be a non-empty string/);
	});

	it("keeps rows as the issue pins them: one per entry, and a sessions row with leaf, count and updated_at", async () => {
		const sessionId = randomUUID();
		const session = await store.open(sessionId);
		const first = await session.appendMessage(user("What is 2 + 2?"), { idempotencyKey: "job-1" });
		const second = await session.appendMessage({ role: "user", content: [{ type: "text", text: "And 3 + 3?" }], timestamp: 5 });
		await session.close();
		const { rows } = await pool.query(`SELECT session_id, seq, id, parent_id, type, timestamp, idempotency_key, entry FROM "${schema}".entries WHERE session_id = $1 ORDER BY seq`, [sessionId]);
		expect(rows).toEqual([
			{ session_id: sessionId, seq: 0, id: first.id, parent_id: null, type: "message", timestamp: String(first.timestamp), idempotency_key: "job-1", entry: first },
			{ session_id: sessionId, seq: 1, id: second.id, parent_id: first.id, type: "message", timestamp: String(second.timestamp), idempotency_key: null, entry: second },
		]);
		const { rows: sessions } = await pool.query(`SELECT leaf_id, entry_count, title, updated_at FROM "${schema}".sessions WHERE id = $1`, [sessionId]);
		expect(sessions[0]).toMatchObject({ leaf_id: second.id, entry_count: 2, title: "What is 2 + 2?" });
		expect(sessions[0].updated_at).toBeInstanceOf(Date);
	});

	it("commits an append of several entries whole or not at all", async () => {
		const sessionId = randomUUID();
		const storage = store.storage(sessionId);
		await storage.load();
		await storage.append([entry("a", null)], null);
		// The third entry repeats an id: the database refuses it, and the two before it go too.
		await expect(storage.append([entry("b", "a"), entry("c", "b"), entry("a", "c")], "a")).rejects.toBeInstanceOf(SessionConflictError);
		const { rows } = await pool.query(`SELECT id FROM "${schema}".entries WHERE session_id = $1 ORDER BY seq`, [sessionId]);
		expect(rows).toEqual([{ id: "a" }]);
		const { rows: sessions } = await pool.query(`SELECT leaf_id, entry_count FROM "${schema}".sessions WHERE id = $1`, [sessionId]);
		expect(sessions[0]).toEqual({ leaf_id: "a", entry_count: 1 });
		await storage.append([entry("b", "a"), entry("c", "b")], "a");
		await storage.close();
	});

	it("never stores one idempotency key twice in a session, even from a writer that skipped the check", async () => {
		const sessionId = randomUUID();
		const storage = store.storage(sessionId);
		await storage.load();
		await storage.append([entry("a", null, { idempotencyKey: "job-7" } as Partial<SessionEntry>)], null);
		await expect(storage.append([entry("b", "a", { idempotencyKey: "job-7" } as Partial<SessionEntry>)], "a")).rejects.toThrow(/same idempotency key is already in the log/);
		const session = await store.open(sessionId);
		expect(session.findByIdempotencyKey("job-7")).toBe("a");
		const again = await session.appendMessage(user("text a"), { idempotencyKey: "job-7" });
		expect(again.id).toBe("a");
		expect(session.entryCount).toBe(1);
		await session.close();
		await storage.close();
	});

	it("refuses an entry holding NUL (jsonb cannot), saying so, and appends nothing", async () => {
		const sessionId = randomUUID();
		const session = await store.open(sessionId);
		await expect(session.appendMessage(user("binary \u0000 output"))).rejects.toThrow(/jsonb holds no NUL characters/);
		expect(session.entryCount).toBe(0);
		await session.appendMessage(user("fine"));
		await session.close();
		const { rows } = await pool.query(`SELECT count(*)::int AS n FROM "${schema}".entries WHERE session_id = $1`, [sessionId]);
		expect(rows[0]).toEqual({ n: 1 });
	});

	it("streams a long log back in order, across read batches", async () => {
		const sessionId = randomUUID();
		const storage = store.storage(sessionId);
		await storage.load();
		const entries = Array.from({ length: 2500 }, (_, index) => entry(`e${index}`, index === 0 ? null : `e${index - 1}`));
		for (let start = 0; start < entries.length; start += 500) await storage.append(entries.slice(start, start + 500), start === 0 ? null : `e${start - 1}`);
		const session = await store.open(sessionId);
		expect(session.entryCount).toBe(2500);
		expect(session.leafId).toBe("e2499");
		expect((await session.buildContext()).messages).toHaveLength(2500);
		await session.close();
		await storage.close();
	});

	it("names a hand-damaged log instead of skipping rows", async () => {
		const sessionId = randomUUID();
		const storage = store.storage(sessionId);
		await storage.load();
		await storage.append([entry("a", null), entry("b", "a"), entry("c", "b")], null);
		await pool.query(`DELETE FROM "${schema}".entries WHERE session_id = $1 AND seq = 1`, [sessionId]);
		await expect(store.open(sessionId)).rejects.toThrow(SessionCorruptError);
		await expect(store.open(sessionId)).rejects.toThrow(new RegExp(`${schema}\\.sessions/${sessionId}.*entry seq 1 is missing`));
		await storage.close();
	});

	it("lists sessions by updated_at, newest first, in pages, with entry count and title", async () => {
		const listed = createPostgresSessionStore({ pool, schema: freshSchemaName("list") });
		const ids: string[] = [];
		for (let index = 0; index < 5; index++) {
			const id = `session-${index}`;
			ids.push(id);
			const session = await listed.open(id);
			for (let n = 0; n <= index; n++) await session.appendMessage(user(`  Question ${index}\n about   things  `));
			await session.close();
		}
		// Touch session-1 last: it moves to the front.
		const touched = await listed.open("session-1");
		await touched.appendMessage(user("later"));
		await touched.close();

		const first = await listed.list({ limit: 2 });
		const second = await listed.list({ limit: 2, cursor: first.nextCursor });
		const third = await listed.list({ limit: 2, cursor: second.nextCursor });
		expect(third.nextCursor).toBeUndefined();
		const all = [...first.sessions, ...second.sessions, ...third.sessions];
		expect(all.map((s) => s.id)).toEqual(["session-1", "session-4", "session-3", "session-2", "session-0"]);
		expect(all.map((s) => s.entryCount)).toEqual([3, 5, 4, 3, 1]);
		expect(all[0]).toMatchObject({ title: "Question 1 about things" });
		for (let index = 1; index < all.length; index++) expect(all[index - 1]!.updated.getTime()).toBeGreaterThanOrEqual(all[index]!.updated.getTime());
		await expect(listed.list({ cursor: "nonsense" })).rejects.toThrow(/"cursor" "nonsense" is not a cursor this store returned/);
		await expect(listed.list({ limit: 0 })).rejects.toThrow(/"limit" must be an integer from 1 to 1000/);
		await pool.query(`DROP SCHEMA "${listed.schema}" CASCADE`);
	});

	it("deletes a session and its entries, but not one a worker is driving", async () => {
		const sessionId = randomUUID();
		const session = await store.open(sessionId);
		await session.appendMessage(user("hello"));
		await expect(store.delete(sessionId)).rejects.toBeInstanceOf(SessionLockedError);
		await session.close();
		expect(await store.delete(sessionId)).toBe(true);
		expect(await store.delete(sessionId)).toBe(false);
		const { rows } = await pool.query(`SELECT count(*)::int AS n FROM "${schema}".entries WHERE session_id = $1`, [sessionId]);
		expect(rows[0]).toEqual({ n: 0 });
		const reopened = await store.open(sessionId);
		expect(reopened.entryCount).toBe(0);
		await reopened.close();
	});
});
