import { defineConfig } from "vitest/config";

export default defineConfig({
	test: {
		include: ["test/**/*.test.ts"],
		// The tests run the built CLI (dist/bin.js) as child processes: bundle it once first.
		globalSetup: ["test/helpers/global-setup.ts"],
		// Each test starts the CLI as a process, some several times: on a machine shared by many jobs
		// one start can take seconds. The limit is a safety net against a hang, not a speed check.
		testTimeout: 120_000,
		// The JSON report feeds the one-line total that scripts/test-summary.mjs prints.
		reporters: ["default", ["json", { outputFile: "test-results.json" }]],
	},
});
