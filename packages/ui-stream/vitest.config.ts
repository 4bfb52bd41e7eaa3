import { defineConfig } from "vitest/config";

export default defineConfig({
	test: {
		include: ["test/**/*.test.ts"],
		testTimeout: 30_000,
		// The JSON report feeds the one-line total that scripts/test-summary.mjs prints.
		reporters: ["default", ["json", { outputFile: "test-results.json" }]],
	},
});
