import { configDefaults, defineConfig } from "vitest/config";

/** The crash tests start worker fleets that load both cores for minutes: they run after the rest, one at a time. */
const crashTests = ["test/workers-crash.test.ts", "test/workers-netns.test.ts"];

export default defineConfig({
	test: {
		reporters: ["default", ["json", { outputFile: "test-results.json" }]],
		projects: [
			{
				extends: true,
				test: { name: "examples", include: ["test/**/*.test.ts"], exclude: [...configDefaults.exclude, ...crashTests], testTimeout: 30_000, sequence: { groupOrder: 0 } },
			},
			{
				extends: true,
				test: { name: "crash", include: crashTests, testTimeout: 30_000, fileParallelism: false, sequence: { groupOrder: 1 } },
			},
		],
	},
});
