// Prints one closing line for the whole monorepo: "Tests: N passed, N failed" (plus skipped),
// summed from each package's vitest JSON report. Exits non-zero if any test failed or none ran.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
let passed = 0;
let failed = 0;
let skipped = 0;
const folders = ["packages", "bench", "examples"].flatMap((dir) => {
	const path = join(root, dir);
	if (!existsSync(path)) return [];
	if (existsSync(join(path, "test-results.json"))) return [path];
	return readdirSync(path).map((name) => join(path, name));
});
for (const folder of folders) {
	const report = join(folder, "test-results.json");
	if (!existsSync(report)) continue;
	const result = JSON.parse(readFileSync(report, "utf8"));
	passed += result.numPassedTests ?? 0;
	failed += result.numFailedTests ?? 0;
	skipped += (result.numPendingTests ?? 0) + (result.numTodoTests ?? 0);
}
console.log(`Tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
if (failed > 0 || passed === 0) process.exit(1);
