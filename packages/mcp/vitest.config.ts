import { defineConfig } from "vitest/config";

export default defineConfig({
	test: {
		include: ["test/**/*.test.ts"],
		// The tests start real MCP server processes (stdio) and HTTP servers on 127.0.0.1.
		testTimeout: 60_000,
		hookTimeout: 60_000,
		// The JSON report feeds the one-line total that scripts/test-summary.mjs prints.
		reporters: ["default", ["json", { outputFile: "test-results.json" }]],
	},
});
