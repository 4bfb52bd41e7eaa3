import { defineConfig } from "vitest/config";

export default defineConfig({
	test: {
		include: ["test/**/*.test.ts"],
		testTimeout: 60_000,
		hookTimeout: 60_000,
		// One real PostgreSQL server for the whole run (or PI_TEST_POSTGRES_URL): see test/global-setup.ts.
		globalSetup: ["./test/global-setup.ts"],
		// The JSON report feeds the one-line total that scripts/test-summary.mjs prints.
		reporters: ["default", ["json", { outputFile: "test-results.json" }]],
	},
});
