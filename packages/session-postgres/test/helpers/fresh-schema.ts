import { randomUUID } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";

/** The run's server (see global-setup.ts). */
export function postgresUrl(): string {
	return inject("postgresUrl");
}

/** A schema name no other test uses; test files run in parallel on one server. */
export function freshSchemaName(prefix = "t"): string {
	return `${prefix}_${randomUUID().replace(/-/g, "").slice(0, 16)}`;
}

/** A pool on the run's server; remember to `end()` it. */
export function testPool(max = 10): pg.Pool {
	const pool = new pg.Pool({ connectionString: postgresUrl(), max });
	pool.on("error", () => undefined);
	return pool;
}

/** Drops a test's schema and everything in it. */
export async function dropSchema(pool: pg.Pool, schema: string): Promise<void> {
	await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
}
