/** Quoting of the schema name, the one identifier that comes from the user. */

/**
 * The schema name as a quoted SQL identifier.
 *
 * @throws TypeError when `schema` is empty, longer than PostgreSQL's 63-byte limit, or holds a NUL.
 */
export function quoteSchema(schema: string): string {
	if (typeof schema !== "string" || schema.length === 0) throw new TypeError(`createPostgresSessionStore: "schema" must be a non-empty string, got ${JSON.stringify(schema)}`);
	if (Buffer.byteLength(schema) > 63) throw new TypeError(`createPostgresSessionStore: "schema" ${JSON.stringify(schema)} is longer than PostgreSQL's 63-byte identifier limit`);
	if (schema.includes("\0")) throw new TypeError('createPostgresSessionStore: "schema" must not contain NUL');
	return `"${schema.replace(/"/g, '""')}"`;
}

/** The fully qualified table names of one schema. */
export interface Tables {
	schema: string;
	migrations: string;
	sessions: string;
	entries: string;
}

/** Table names in `schema`, quoted for SQL. */
export function tablesOf(schema: string): Tables {
	const quoted = quoteSchema(schema);
	return { schema: quoted, migrations: `${quoted}.schema_migrations`, sessions: `${quoted}.sessions`, entries: `${quoted}.entries` };
}
