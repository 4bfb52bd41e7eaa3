import { randomUUID } from "node:crypto";
import { openSession, type SessionEntry, SessionConflictError, SessionLockedError } from "@pi/agent-core";
import { afterAll, describe, expect, it } from "vitest";
import { createPostgresSessionStore } from "../src/index.js";
import { dropSchema, freshSchemaName, postgresUrl, testPool } from "./helpers/fresh-schema.js";

const pool = testPool();
const schema = freshSchemaName("concurrent");
const stores = Array.from({ length: 8 }, () => createPostgresSessionStore({ connectionString: postgresUrl(), schema, poolOptions: { max: 2 } }));
afterAll(async () => {
	for (const store of stores) await store.close();
	await dropSchema(pool, schema);
	await pool.end();
});

const user = (text: string) => ({ role: "user" as const, content: text, timestamp: Date.now() });

async function rows(sessionId: string) {
	const { rows } = await pool.query<{ seq: number; id: string; parent_id: string | null; entry: SessionEntry }>(
		`SELECT seq, id, parent_id, entry FROM "${schema}".entries WHERE session_id = $1 ORDER BY seq`,
		[sessionId],
	);
	return rows;
}

/** Every entry's parent is the entry before it: one unbroken chain, no fork. */
function expectOneChain(list: { seq: number; id: string; parent_id: string | null }[]) {
	list.forEach((row, index) => {
		expect(row.seq).toBe(index);
		expect(row.parent_id).toBe(index === 0 ? null : list[index - 1]?.id);
	});
	expect(new Set(list.map((row) => row.parent_id)).size).toBe(list.length);
}

describe("concurrent writers on one session", () => {
	it("8 appenders through the lock lose no entry and fork nothing", async () => {
		const sessionId = randomUUID();
		const perWriter = 10;
		let refusals = 0;
		// Each writer is its own store (own pool, own connections): it takes the session's lock,
		// appends one message, lets go, and comes back until it has appended all of its messages.
		const writer = async (store: (typeof stores)[number], writerIndex: number) => {
			for (let n = 0; n < perWriter; ) {
				try {
					const session = await store.open(sessionId);
					try {
						await session.appendMessage(user(`writer ${writerIndex} message ${n}`));
						n++;
					} finally {
						await session.close();
					}
				} catch (error) {
					if (!(error instanceof SessionLockedError)) throw error;
					refusals++;
					await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
				}
			}
		};
		await Promise.all(stores.map((store, index) => writer(store, index)));
		const list = await rows(sessionId);
		expect(list).toHaveLength(8 * perWriter);
		expectOneChain(list);
		const texts = list.map((row) => (row.entry.type === "message" ? row.entry.message : undefined)).map((m) => (m as { content: string }).content);
		for (let w = 0; w < 8; w++) {
			// Each writer's own messages are all there, in its order.
			expect(texts.filter((text) => text.startsWith(`writer ${w} `))).toEqual(Array.from({ length: perWriter }, (_, n) => `writer ${w} message ${n}`));
		}
		expect(refusals).toBeGreaterThan(0); // they did contend for the lock
		const { rows: summary } = await pool.query(`SELECT entry_count, leaf_id FROM "${schema}".sessions WHERE id = $1`, [sessionId]);
		expect(summary[0]).toEqual({ entry_count: 8 * perWriter, leaf_id: list[list.length - 1]?.id });
	});

	it("a writer that bypasses the lock gets SessionConflictError, and the log stays one chain", async () => {
		const sessionId = randomUUID();
		const driver = await stores[0]!.open(sessionId);
		await driver.appendMessage(user("first"));
		const intruder = await openSession(stores[1]!.storage(sessionId), { lock: false });
		await driver.appendMessage(user("second, by the lock holder"));
		await expect(intruder.appendMessage(user("stale write"))).rejects.toBeInstanceOf(SessionConflictError);
		await driver.appendMessage(user("third"));
		await driver.close();
		await intruder.close();
		const list = await rows(sessionId);
		expect(list.map((row) => (row.entry as { message: { content: string } }).message.content)).toEqual(["first", "second, by the lock holder", "third"]);
		expectOneChain(list);
	});

	it("of 8 lock-bypassing writers racing from the same end of the log, exactly one wins", async () => {
		const sessionId = randomUUID();
		const seed = await stores[0]!.open(sessionId);
		const root = await seed.appendMessage(user("root"));
		await seed.close();
		const racers = await Promise.all(stores.map((store) => openSession(store.storage(sessionId), { lock: false })));
		const outcomes = await Promise.allSettled(racers.map((session, index) => session.appendMessage(user(`racer ${index}`))));
		await Promise.all(racers.map((session) => session.close()));
		expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
		const rejected = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === "rejected");
		expect(rejected).toHaveLength(7);
		for (const outcome of rejected) {
			expect(outcome.reason).toBeInstanceOf(SessionConflictError);
			expect((outcome.reason as SessionConflictError).expectedLastId).toBe(root.id);
		}
		const list = await rows(sessionId);
		expect(list).toHaveLength(2);
		expectOneChain(list);
	});
});
