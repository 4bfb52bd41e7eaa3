import { defineConfig } from "vitest/config";

export default defineConfig({
	test: {
		include: ["test/**/*.test.ts"],
		// Generous: a hang still fails, but a machine shared by several runs (a 16x slowdown was seen)
		// must not fail replay tests that take seconds when idle.
		testTimeout: 60_000,
		// The JSON report feeds the one-line total that scripts/test-summary.mjs prints.
		reporters: ["default", ["json", { outputFile: "test-results.json" }]],
	},
});
