// Sums the vitest JSON reports (test-results.json) of every workspace package that has a "test"
// script, and words the closing line of `pnpm test`. Used by scripts/test.mjs; run alone it
// prints the closing line for the last run. Tested by examples/test/test-summary.test.ts.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const repositoryRoot = fileURLToPath(new URL("..", import.meta.url));

/** Every workspace folder under `root` with a "test" script, and where its vitest JSON report goes. */
export function testPackages(root = repositoryRoot) {
	const folders = ["packages", "bench", "examples", "fixtures"].flatMap((dir) => {
		const path = join(root, dir);
		if (!existsSync(path)) return [];
		// The folder itself when it is a package (examples, bench, fixtures), and the packages inside it
		// (packages/*, examples/testing-with-cassettes).
		const inside = readdirSync(path).map((name) => join(path, name));
		return existsSync(join(path, "package.json")) ? [path, ...inside] : inside;
	});
	return folders.flatMap((folder) => {
		const manifest = join(folder, "package.json");
		if (!existsSync(manifest)) return [];
		const pkg = JSON.parse(readFileSync(manifest, "utf8"));
		return pkg.scripts?.test ? [{ name: pkg.name, report: join(folder, "test-results.json") }] : [];
	});
}

/** Totals over the reports that exist under `root`, and the packages whose report is missing. */
export function summarise(root = repositoryRoot) {
	let passed = 0;
	let failed = 0;
	let skipped = 0;
	const missing = [];
	for (const pkg of testPackages(root)) {
		if (!existsSync(pkg.report)) {
			missing.push(pkg.name);
			continue;
		}
		const result = JSON.parse(readFileSync(pkg.report, "utf8"));
		passed += result.numPassedTests ?? 0;
		failed += result.numFailedTests ?? 0;
		skipped += (result.numPendingTests ?? 0) + (result.numTodoTests ?? 0);
		// A test file that fails before any of its tests runs has no failed test. Failing at import, it
		// counts as one failure; failing in its set-up (a beforeAll that throws), vitest reports its
		// tests as skipped: they count as failed, since none of them ran.
		for (const file of result.testResults ?? []) {
			const tests = file.assertionResults ?? [];
			if (file.status !== "failed" || tests.some((test) => test.status === "failed")) continue;
			const notRun = tests.filter((test) => test.status !== "passed").length;
			failed += Math.max(1, notRun);
			skipped -= notRun;
		}
	}
	return { passed, failed, skipped, missing };
}

/**
 * The last lines of `pnpm test` and its exit code, from the totals and turbo's exit status
 * (`null` when only the reports are summed). A package with no report counts as one failure, and
 * so does a failed turbo run (a build or type-check) when no test failed. Exit code 1 unless
 * something passed and nothing failed.
 */
export function closingLines({ passed, failed, skipped, missing }, turboStatus = null) {
	const lines = missing.map((name) => `${name}: no test report (its build, type-check or test run failed before reporting); counted as 1 failed`);
	let failedTotal = failed + missing.length;
	if (turboStatus !== null && turboStatus !== 0 && failedTotal === 0) {
		lines.push(`a build or type-check task failed (turbo exit ${turboStatus}); counted as 1 failed`);
		failedTotal = 1;
	}
	lines.push(`Tests: ${passed} passed, ${failedTotal} failed${skipped ? `, ${skipped} skipped` : ""}`);
	return { lines, exitCode: failedTotal > 0 || passed === 0 ? 1 : 0 };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const { lines, exitCode } = closingLines(summarise());
	for (const line of lines) console.log(line);
	process.exit(exitCode);
}
