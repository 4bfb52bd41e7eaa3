/**
 * A `SessionStorage` over two tables: `entries` holds one row per entry, numbered by `seq` in
 * log order, and `sessions` one row per session with its last entry (the leaf every append
 * attaches to), its entry count and `updated_at`. An append is one statement (so one transaction)
 * that locks the session's row, checks the log still ends where the writer expects, inserts the
 * entries and moves the row on: it commits whole or not at all, and a writer that bypassed the session lock
 * gets `SessionConflictError` instead of forking the log.
 */
import type pg from "pg";
import { SessionConflictError, SessionCorruptError, type SessionEntry, type SessionLog, type SessionStorage, type SessionStorageLock } from "@pi/agent-core";
import type { Queryable } from "./queryable.js";
import { acquireSessionLock, type HeldSessionLock } from "./session-lock.js";
import type { Tables } from "./sql-names.js";
import { titleOf } from "./session-title.js";

/** What every storage of one store shares. */
export interface StorageContext {
	pool: Queryable;
	/** How to open the dedicated connection of a session lock. */
	clientConfig: pg.ClientConfig;
	schema: string;
	tables: Tables;
	/** Resolves once the schema is migrated. */
	ready(): Promise<void>;
}

/** The one row the append statement returns. */
interface AppendResult {
	found: boolean;
	actual: string | null;
	appended: boolean;
}

/** Rows read per round trip while loading: memory stays bounded for long sessions. */
const LOAD_BATCH = 1000;

/** A {@link SessionStorage} with the Postgres extras the store uses. */
export interface PostgresSessionStorage extends SessionStorage {
	readonly sessionId: string;
	/** Whether this storage holds the session's lock right now. */
	readonly locked: boolean;
}

/**
 * The storage of session `sessionId` in the store's schema. Creating it touches nothing; the first
 * `load()` creates the session's row.
 */
export function createPostgresSessionStorage(context: StorageContext, sessionId: string): PostgresSessionStorage {
	if (typeof sessionId !== "string" || sessionId.length === 0) throw new TypeError(`@pi/session-postgres: a session id must be a non-empty string, got ${JSON.stringify(sessionId)}`);
	const { pool, tables } = context;
	const source = `${context.schema}.sessions/${sessionId}`;
	let held: HeldSessionLock | undefined;
	// One statement, so one round trip and its own transaction: lock the session's row, check that
	// the log ends where the writer expects ($2), insert the entries numbered after the row's
	// count, move the row on. Data-modifying CTEs run once whether or not they are read; they
	// touch nothing when the check fails, because they read from "expected", which is then empty.
	// A concurrent appender waits on the row lock and then sees the moved leaf: a conflict.
	const appendSql = `
		WITH current AS (
			SELECT leaf_id, entry_count FROM ${tables.sessions} WHERE id = $1 FOR UPDATE
		), expected AS (
			SELECT entry_count FROM current WHERE leaf_id IS NOT DISTINCT FROM $2::text
		), inserted AS (
			INSERT INTO ${tables.entries} (session_id, seq, id, parent_id, type, timestamp, entry, idempotency_key)
			SELECT $1, expected.entry_count + t.ord::integer - 1, t.e->>'id', t.e->>'parentId', t.e->>'type',
			       round((t.e->>'timestamp')::numeric)::bigint, t.e, t.e->>'idempotencyKey'
			FROM expected, jsonb_array_elements($3::jsonb) WITH ORDINALITY AS t(e, ord)
			RETURNING 1
		), moved AS (
			UPDATE ${tables.sessions} SET leaf_id = $4, entry_count = entry_count + $5::integer,
			       updated_at = clock_timestamp(), title = COALESCE(title, $6)
			WHERE id = $1 AND EXISTS (SELECT 1 FROM expected)
			RETURNING 1
		)
		SELECT EXISTS (SELECT 1 FROM current) AS found, (SELECT leaf_id FROM current) AS actual,
		       EXISTS (SELECT 1 FROM moved) AS appended`;

	/** The connection appends use: the lock's own while the lock is held, so a lost lock fails loudly. */
	const writer = async (): Promise<{ client: Pick<pg.PoolClient, "query">; done(): void }> => {
		if (held) {
			if (held.released) throw new Error(`@pi/session-postgres: the connection holding the lock of session ${sessionId} was lost; reopen the session`);
			return { client: held.client, done: () => undefined };
		}
		return { client: pool, done: () => undefined };
	};

	async function* readEntries(): AsyncGenerator<SessionEntry> {
		let after = -1;
		for (;;) {
			const { rows } = await pool.query<{ seq: number; id: string; entry: SessionEntry }>(
				`SELECT seq, id, entry FROM ${tables.entries} WHERE session_id = $1 AND seq > $2 ORDER BY seq LIMIT ${LOAD_BATCH}`,
				[sessionId, after],
			);
			for (const row of rows) {
				// The row's columns and its JSON must agree: a hand-edited row is named, not skipped.
				if (row.seq !== after + 1) throw new SessionCorruptError({ source }, `entry seq ${after + 1} is missing (next row is seq ${row.seq})`);
				if (typeof row.entry !== "object" || row.entry === null || row.entry.id !== row.id) {
					throw new SessionCorruptError({ source }, `the entry JSON of seq ${row.seq} does not match its id column ${JSON.stringify(row.id)}`);
				}
				after = row.seq;
				yield row.entry;
			}
			if (rows.length < LOAD_BATCH) return;
		}
	}

	return {
		sessionId,
		get locked() {
			return held !== undefined && !held.released;
		},

		async load(): Promise<SessionLog> {
			await context.ready();
			await pool.query(`INSERT INTO ${tables.sessions} (id) VALUES ($1) ON CONFLICT (id) DO NOTHING`, [sessionId]);
			return { id: sessionId, repaired: false, entries: readEntries() };
		},

		async append(entries: readonly SessionEntry[], expectedLastId: string | null): Promise<void> {
			if (entries.length === 0) return;
			await context.ready();
			const last = entries[entries.length - 1] as SessionEntry;
			const values = [sessionId, expectedLastId, JSON.stringify(entries), last.id, entries.length, titleOf(entries)];
			const { client, done } = await writer();
			try {
				let result = await client.query<AppendResult>(appendSql, values);
				if (!result.rows[0]?.found) {
					// A log appended to before any load(): make its row, then append.
					await client.query(`INSERT INTO ${tables.sessions} (id) VALUES ($1) ON CONFLICT (id) DO NOTHING`, [sessionId]);
					result = await client.query<AppendResult>(appendSql, values);
				}
				const row = result.rows[0];
				if (!row?.found) throw new Error(`@pi/session-postgres: session ${sessionId} was deleted while appending`);
				if (!row.appended) throw new SessionConflictError(source, expectedLastId, row.actual);
			} catch (error) {
				throw translate(error, source, expectedLastId);
			} finally {
				done();
			}
		},

		async lock(): Promise<SessionStorageLock> {
			await context.ready();
			if (held && !held.released) throw new Error(`@pi/session-postgres: this storage already holds the lock of session ${sessionId}`);
			const lock = await acquireSessionLock(context.clientConfig, context.schema, sessionId);
			held = lock;
			return {
				release: async () => {
					await lock.release();
					if (held === lock) held = undefined;
				},
			};
		},

		async close(): Promise<void> {
			// The pool is the store's and the lock's connection is released by the lock: nothing
			// to free, and the storage stays usable, so a closed session can be opened again.
		},
	};
}

/** Unique violations become conflicts: a duplicate entry id or idempotency key means another writer got there first. */
function translate(error: unknown, source: string, expectedLastId: string | null): unknown {
	const pgError = error as { code?: string; constraint?: string; detail?: string };
	if (pgError.code === "23505") {
		const conflict = new SessionConflictError(source, expectedLastId, null);
		conflict.message = `Session ${source}: append rejected, ${pgError.constraint === "entries_idempotency_key" ? "an entry with the same idempotency key" : "an entry with the same id"} is already in the log (${pgError.detail ?? pgError.constraint})`;
		return conflict;
	}
	if (pgError.code === "22P05" || pgError.code === "22021") {
		return new Error(`@pi/session-postgres: PostgreSQL cannot store this entry in ${source} (jsonb holds no NUL characters, \\u0000): ${(error as Error).message}`, { cause: error });
	}
	return error;
}
