import { startPostgres, type TestPostgres } from "./start-postgres.js";

/**
 * The server a test run uses: `PI_TEST_POSTGRES_URL` when set (a developer's own server, which is
 * left running), else a throwaway one from {@link startPostgres}, stopped by `stop()`.
 *
 * Made for a vitest `globalSetup`:
 * @example
 * // test/global-setup.ts
 * export default async function setup(project) {
 *   const server = await testPostgres();
 *   project.provide("postgresUrl", server.url);
 *   return () => server.stop();
 * }
 */
export async function testPostgres(): Promise<Pick<TestPostgres, "url" | "stop"> & { external: boolean }> {
	const url = process.env.PI_TEST_POSTGRES_URL;
	if (url) return { url, external: true, stop: async () => undefined };
	const server = await startPostgres();
	return { url: server.url, external: false, stop: server.stop };
}
