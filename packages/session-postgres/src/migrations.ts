/**
 * The package's own tables, created and upgraded in place by numbered migrations. Each runs in
 * the one transaction that holds a transaction-scoped advisory lock, so that workers starting at
 * the same moment apply every migration exactly once: the first takes the lock and migrates, the
 * others wait for it, then find nothing left to do.
 */
import type { PoolClient } from "pg";
import type { Queryable } from "./queryable.js";
import { tablesOf, type Tables } from "./sql-names.js";

/** One schema change. `version`s are unique and applied in increasing order; never edit a released one. */
export interface Migration {
	version: number;
	name: string;
	up(tables: Tables): string;
}

/** The migrations of this package, in order. Add new ones at the end. */
export const MIGRATIONS: readonly Migration[] = [
	{
		version: 1,
		name: "sessions and entries",
		// Plain CREATE (no IF NOT EXISTS): running a migration twice is a bug, and should fail loudly.
		up: (t) => `
			CREATE TABLE ${t.sessions} (
				id text PRIMARY KEY,
				leaf_id text,
				entry_count integer NOT NULL DEFAULT 0,
				title text,
				created_at timestamptz NOT NULL DEFAULT now(),
				updated_at timestamptz NOT NULL DEFAULT now()
			);
			CREATE INDEX sessions_updated_at ON ${t.sessions} (updated_at DESC, id DESC);
			CREATE TABLE ${t.entries} (
				session_id text NOT NULL REFERENCES ${t.sessions} (id) ON DELETE CASCADE,
				seq integer NOT NULL,
				id text NOT NULL,
				parent_id text,
				type text NOT NULL,
				timestamp bigint NOT NULL,
				entry jsonb NOT NULL,
				PRIMARY KEY (session_id, seq),
				UNIQUE (session_id, id)
			);`,
	},
	{
		version: 2,
		name: "idempotency keys",
		// A prompt appended by a retried job is found by its key; the unique index makes a second copy impossible.
		up: (t) => `
			ALTER TABLE ${t.entries} ADD COLUMN idempotency_key text;
			CREATE UNIQUE INDEX entries_idempotency_key ON ${t.entries} (session_id, idempotency_key) WHERE idempotency_key IS NOT NULL;`,
	},
];

/** Key of the advisory lock that serialises migrations of one schema (any process, any machine). */
const migrationLockSql = "SELECT pg_advisory_xact_lock(hashtextextended('pi-session-postgres:migrate:' || $1, 0))";

/**
 * Brings `schema` up to the newest of `migrations`, applying each missing one once, in order.
 * Returns the versions it applied (empty when the schema was up to date).
 *
 * @throws Error naming the migration that failed (nothing of the run is kept: one transaction).
 */
export async function migrate(db: Queryable, schema: string, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
	const tables = tablesOf(schema);
	const client = await connect(db);
	try {
		await client.query("BEGIN");
		try {
			await client.query(migrationLockSql, [schema]);
			await client.query(`CREATE SCHEMA IF NOT EXISTS ${tables.schema}`);
			await client.query(`CREATE TABLE IF NOT EXISTS ${tables.migrations} (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
			const done = new Set((await client.query<{ version: number }>(`SELECT version FROM ${tables.migrations}`)).rows.map((row) => row.version));
			const applied: number[] = [];
			for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
				if (done.has(migration.version)) continue;
				try {
					await client.query(migration.up(tables));
				} catch (error) {
					throw new Error(`@pi/session-postgres: migration ${migration.version} (${migration.name}) of schema ${schema} failed: ${(error as Error).message}`, { cause: error });
				}
				await client.query(`INSERT INTO ${tables.migrations} (version, name) VALUES ($1, $2)`, [migration.version, migration.name]);
				applied.push(migration.version);
			}
			await client.query("COMMIT");
			return applied;
		} catch (error) {
			await client.query("ROLLBACK").catch(() => undefined);
			throw error;
		}
	} finally {
		client.release();
	}
}

async function connect(db: Queryable): Promise<Pick<PoolClient, "query" | "release">> {
	return db.connect();
}
