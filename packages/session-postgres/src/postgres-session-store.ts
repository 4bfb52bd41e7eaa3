/**
 * `createPostgresSessionStore`: sessions in PostgreSQL for many stateless workers. Any worker
 * opens any session by id; the session's advisory lock makes one of them its driver at a time.
 */
import type pg from "pg";
import { openSession, type Session } from "@pi/agent-core";
import { migrate } from "./migrations.js";
import { createPostgresSessionStorage, type PostgresSessionStorage, type StorageContext } from "./postgres-session-storage.js";
import type { Queryable } from "./queryable.js";
import { tablesOf } from "./sql-names.js";

/** Options of {@link createPostgresSessionStore}: give `pool` or `connectionString`. */
export interface PostgresSessionStoreOptions {
	/** An existing `pg.Pool` (the app's, or a job queue's). The store never ends it. */
	pool?: pg.Pool;
	/** A connection string; the store makes its own pool (ended by `close()`). */
	connectionString?: string;
	/** The schema holding the tables, created when missing. Default `"pi_sessions"`. */
	schema?: string;
	/** Options of the pool made from `connectionString` (e.g. `max`). Default `{ max: 10 }`. */
	poolOptions?: Omit<pg.PoolConfig, "connectionString">;
}

/** One row of {@link PostgresSessionStore.list}. */
export interface SessionSummary {
	id: string;
	/** When the last entry was appended (the row's `updated_at`). */
	updated: Date;
	entryCount: number;
	/** The first user message's text, cut at 120 characters; `null` before the first prompt. */
	title: string | null;
}

/** Options of {@link PostgresSessionStore.list}. */
export interface ListSessionsOptions {
	/** Page size, 1 to 1000. Default 50. */
	limit?: number;
	/** The `nextCursor` of the previous page. */
	cursor?: string;
}

/** A page of sessions, most recently updated first. */
export interface SessionPage {
	sessions: SessionSummary[];
	/** Pass to `list({ cursor })` for the next page; `undefined` on the last page. */
	nextCursor: string | undefined;
}

/** Sessions in one PostgreSQL schema. */
export interface PostgresSessionStore {
	/** The schema name. */
	readonly schema: string;
	/**
	 * Opens session `sessionId` (creating it when new): `openSession` over {@link storage}, so the
	 * same `Session` as every other storage gives, including its lock.
	 */
	open(sessionId: string, options?: Parameters<typeof openSession>[1]): Promise<Session>;
	/** The bare storage of one session, for `openSession` with options of your own or for tests. */
	storage(sessionId: string): PostgresSessionStorage;
	/** Sessions by `updated_at`, newest first, paged with an opaque cursor. */
	list(options?: ListSessionsOptions): Promise<SessionPage>;
	/**
	 * Deletes a session and its entries. Resolves `false` when there was none.
	 * @throws SessionLockedError when a worker holds the session right now.
	 */
	delete(sessionId: string): Promise<boolean>;
	/** Creates or upgrades the tables now (otherwise the first operation does). Safe to call from many workers at once. */
	migrate(): Promise<void>;
	/** Ends the pool the store made from `connectionString`; a given `pool` is left to its owner. */
	close(): Promise<void>;
}

/**
 * A session store in PostgreSQL.
 *
 * - Tables are created and upgraded by versioned migrations, once, even when many workers start
 *   together (an advisory lock serialises them).
 * - `open(id)` gives a `Session` whose appends are transactions that check the log's end, and
 *   whose lock is a session-scoped advisory lock on a connection of its own: it frees itself when
 *   that connection dies, so another worker takes over at once.
 *
 * @example
 * ```ts
 * const store = createPostgresSessionStore({ connectionString: process.env.DATABASE_URL });
 * const session = await store.open("chat-42");
 * const agent = new Agent({ session, initialState: { model, tools } });
 * await agent.prompt("Where were we?");
 * await session.close();
 * await store.close();
 * ```
 */
export function createPostgresSessionStore(options: PostgresSessionStoreOptions): PostgresSessionStore {
	if (!options || (!options.pool && !options.connectionString)) throw new TypeError('createPostgresSessionStore: give "pool" (a pg.Pool) or "connectionString"');
	if (options.pool && options.connectionString) throw new TypeError('createPostgresSessionStore: give "pool" or "connectionString", not both');
	const schema = options.schema ?? "pi_sessions";
	const tables = tablesOf(schema);
	// The driver loads on first use, not on import: importing the package stays cheap.
	let ownPool: Promise<pg.Pool> | undefined;
	const getPool = (): Promise<pg.Pool> => {
		if (options.pool) return Promise.resolve(options.pool);
		ownPool ??= import("pg").then(({ default: driver }) => {
			const created = new driver.Pool({ max: 10, ...options.poolOptions, connectionString: options.connectionString });
			// Idle pooled connections that die must not crash the process; the next query reconnects.
			created.on("error", () => undefined);
			return created;
		});
		return ownPool;
	};
	const pool: Queryable = {
		query: (async (...args: unknown[]) => ((await getPool()).query as (...a: unknown[]) => unknown)(...args)) as Queryable["query"],
		connect: (async () => (await getPool()).connect()) as Queryable["connect"],
	};
	const clientConfig: pg.ClientConfig = options.pool ? clientConfigOf(options.pool) : { ...options.poolOptions, connectionString: options.connectionString };

	let migrated: Promise<void> | undefined;
	const ready = () => {
		migrated ??= migrate(pool, schema).then(
			() => undefined,
			(error) => {
				migrated = undefined; // a failed migration is tried again by the next call
				throw error;
			},
		);
		return migrated;
	};
	const context: StorageContext = { pool, clientConfig, schema, tables, ready };

	return {
		schema,
		storage: (sessionId) => createPostgresSessionStorage(context, sessionId),
		open: (sessionId, openOptions) => openSession(createPostgresSessionStorage(context, sessionId), openOptions),
		migrate: ready,

		async list(listOptions = {}) {
			const limit = listOptions.limit ?? 50;
			if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new RangeError(`list: "limit" must be an integer from 1 to 1000, got ${limit}`);
			await ready();
			const after = listOptions.cursor === undefined ? undefined : decodeCursor(listOptions.cursor);
			const { rows } = await pool.query<{ id: string; updated_at: Date; updated_text: string; entry_count: number; title: string | null }>(
				`SELECT id, updated_at, updated_at::text AS updated_text, entry_count, title FROM ${tables.sessions}
				 ${after ? "WHERE (updated_at, id) < ($2::timestamptz, $3)" : ""}
				 ORDER BY updated_at DESC, id DESC LIMIT $1`,
				after ? [limit + 1, after[0], after[1]] : [limit + 1],
			);
			const page = rows.slice(0, limit);
			const last = page[page.length - 1];
			return {
				sessions: page.map((row) => ({ id: row.id, updated: row.updated_at, entryCount: row.entry_count, title: row.title })),
				nextCursor: rows.length > limit && last ? encodeCursor(last.updated_text, last.id) : undefined,
			};
		},

		async delete(sessionId) {
			await ready();
			// Deleting a session a worker is driving would pull the log from under it: take its lock first.
			const storage = createPostgresSessionStorage(context, sessionId);
			const lock = await storage.lock();
			try {
				const { rowCount } = await pool.query(`DELETE FROM ${tables.sessions} WHERE id = $1`, [sessionId]);
				return (rowCount ?? 0) > 0;
			} finally {
				await lock.release();
			}
		},

		async close() {
			const created = ownPool;
			ownPool = undefined;
			await (await created)?.end();
		},
	};
}

/** The connection settings of a given pool, for the lock's dedicated connections. */
function clientConfigOf(pool: pg.Pool): pg.ClientConfig {
	const { max: _max, min: _min, idleTimeoutMillis: _idle, ...config } = (pool as unknown as { options: pg.PoolConfig }).options;
	return config;
}

// The cursor keeps updated_at as PostgreSQL's own text (microseconds): a JS Date would round to
// milliseconds and skip or repeat rows updated within the same millisecond.
function encodeCursor(updated: string, id: string): string {
	return Buffer.from(JSON.stringify([updated, id])).toString("base64url");
}

function decodeCursor(cursor: string): [string, string] {
	try {
		const value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
		if (Array.isArray(value) && value.length === 2 && typeof value[0] === "string" && typeof value[1] === "string") return [value[0], value[1]];
	} catch {}
	throw new TypeError(`list: "cursor" ${JSON.stringify(cursor)} is not a cursor this store returned`);
}
