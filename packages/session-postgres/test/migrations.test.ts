import { afterAll, describe, expect, it } from "vitest";
import { MIGRATIONS, migrate, type Migration } from "../src/migrations.js";
import { dropSchema, freshSchemaName, testPool } from "./helpers/fresh-schema.js";

const pool = testPool(20);
const schemas: string[] = [];
afterAll(async () => {
	for (const schema of schemas) await dropSchema(pool, schema);
	await pool.end();
});
const schema = () => {
	const name = freshSchemaName("migrate");
	schemas.push(name);
	return name;
};

async function appliedVersions(name: string): Promise<number[]> {
	const { rows } = await pool.query<{ version: number }>(`SELECT version FROM "${name}".schema_migrations ORDER BY version`);
	return rows.map((row) => row.version);
}

describe("migrations", () => {
	it("create the schema and its tables on a fresh database, then do nothing", async () => {
		const name = schema();
		expect(await migrate(pool, name)).toEqual(MIGRATIONS.map((m) => m.version));
		expect(await migrate(pool, name)).toEqual([]);
		const { rows } = await pool.query<{ column_name: string }>(
			"SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'entries' ORDER BY ordinal_position",
			[name],
		);
		expect(rows.map((row) => row.column_name)).toEqual(["session_id", "seq", "id", "parent_id", "type", "timestamp", "entry", "idempotency_key"]);
	});

	it("run once when eight starters migrate at the same moment", async () => {
		// The migrations use plain CREATE TABLE: a second run of any of them would throw.
		const name = schema();
		const results = await Promise.all(Array.from({ length: 8 }, () => migrate(pool, name)));
		expect(results.filter((applied) => applied.length > 0)).toEqual([MIGRATIONS.map((m) => m.version)]);
		expect(await appliedVersions(name)).toEqual(MIGRATIONS.map((m) => m.version));
	});

	it("upgrade an older schema in place, keeping its rows", async () => {
		const name = schema();
		await migrate(pool, name, MIGRATIONS.slice(0, 1));
		await pool.query(`INSERT INTO "${name}".sessions (id) VALUES ('old')`);
		const v3: Migration = { version: 3, name: "a later column", up: (t) => `ALTER TABLE ${t.sessions} ADD COLUMN note text` };
		expect(await migrate(pool, name, [...MIGRATIONS, v3])).toEqual([2, 3]);
		const { rows } = await pool.query(`SELECT id, note FROM "${name}".sessions`);
		expect(rows).toEqual([{ id: "old", note: null }]);
	});

	it("keep nothing of a run whose migration fails, and name it", async () => {
		const name = schema();
		const broken: Migration = { version: 9, name: "broken", up: () => "SELECT * FROM no_such_table" };
		await expect(migrate(pool, name, [...MIGRATIONS, broken])).rejects.toThrow(/migration 9 \(broken\) of schema migrate_\w+ failed: relation "no_such_table" does not exist/);
		const { rows } = await pool.query("SELECT 1 FROM information_schema.schemata WHERE schema_name = $1", [name]);
		expect(rows).toEqual([]);
	});

	it("refuse a schema name PostgreSQL cannot hold", async () => {
		await expect(migrate(pool, "")).rejects.toThrow(/"schema" must be a non-empty string/);
		await expect(migrate(pool, "x".repeat(64))).rejects.toThrow(/63-byte identifier limit/);
	});
});
