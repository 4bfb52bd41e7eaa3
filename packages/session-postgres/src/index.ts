/**
 * `@pi/session-postgres`: sessions of `@pi/agent-core` in PostgreSQL, for many workers on many
 * machines. See docs/scaling.md.
 * @module
 */
export { MIGRATIONS, migrate, type Migration } from "./migrations.js";
export type { PostgresSessionStorage } from "./postgres-session-storage.js";
export {
	createPostgresSessionStore,
	type ListSessionsOptions,
	type PostgresSessionStore,
	type PostgresSessionStoreOptions,
	type SessionPage,
	type SessionSummary,
} from "./postgres-session-store.js";
export { titleOf } from "./session-title.js";
