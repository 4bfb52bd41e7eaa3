// Sums the vitest JSON reports (test-results.json) of every workspace package that has a "test"
// script. Used by scripts/test.mjs; run alone it prints the closing line for the last run.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

/** Every workspace folder with a "test" script, and where its vitest JSON report goes. */
export function testPackages() {
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

/** Totals over the reports that exist, and the packages whose report is missing. */
export function summarise() {
	let passed = 0;
	let failed = 0;
	let skipped = 0;
	const missing = [];
	for (const pkg of testPackages()) {
		if (!existsSync(pkg.report)) {
			missing.push(pkg.name);
			continue;
		}
		const result = JSON.parse(readFileSync(pkg.report, "utf8"));
		passed += result.numPassedTests ?? 0;
		failed += result.numFailedTests ?? 0;
		// A test file that fails before any test runs (an import error) has no failed test: count it.
		for (const file of result.testResults ?? []) {
			if (file.status === "failed" && !file.assertionResults?.some((test) => test.status === "failed")) failed += 1;
		}
		skipped += (result.numPendingTests ?? 0) + (result.numTodoTests ?? 0);
	}
	return { passed, failed, skipped, missing };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const { passed, failed, skipped, missing } = summarise();
	console.log(`Tests: ${passed} passed, ${failed + missing.length} failed${skipped ? `, ${skipped} skipped` : ""}`);
	if (failed + missing.length > 0 || passed === 0) process.exit(1);
}
