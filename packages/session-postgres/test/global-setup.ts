/**
 * One real PostgreSQL server for the whole test run: `PI_TEST_POSTGRES_URL` when set, else a
 * throwaway server started here (initdb + pg_ctl on a free loopback port) and stopped at the end.
 * When none can start, this throws and the run fails with the reason and how to install
 * PostgreSQL; the tests are never skipped.
 */
import type { TestProject } from "vitest/node";
import { testPostgres } from "../src/testing/index.js";

declare module "vitest" {
	export interface ProvidedContext {
		postgresUrl: string;
	}
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
	const server = await testPostgres();
	project.provide("postgresUrl", server.url);
	return () => server.stop();
}
