import { defineConfig } from "vitest/config";

export default defineConfig({
	test: {
		include: ["test/**/*.test.ts"],
		// The tests run the built CLI (dist/bin.js) as child processes: bundle it once first.
		globalSetup: ["test/helpers/global-setup.ts"],
		testTimeout: 30_000,
		// The JSON report feeds the one-line total that scripts/test-summary.mjs prints.
		reporters: ["default", ["json", { outputFile: "test-results.json" }]],
	},
});
