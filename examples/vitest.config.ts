import { defineConfig } from "vitest/config";

export default defineConfig({
	test: {
		include: ["test/**/*.test.ts"],
		// Each test starts Node processes (tsx, tsc); on a machine shared by several test runs one
		// took over 30 s. A hang still fails.
		testTimeout: 120_000,
		reporters: ["default", ["json", { outputFile: "test-results.json" }]],
	},
});
