/**
 * `@pi/session-postgres/testing`: a real PostgreSQL server for tests (Node only).
 * @module
 */
export { findPostgresBinaries, INSTALL_HINT } from "./find-postgres.js";
export { freePort } from "./free-port.js";
export { startPostgres, type StartPostgresOptions, type TestPostgres } from "./start-postgres.js";
export { testPostgres } from "./test-postgres-url.js";
