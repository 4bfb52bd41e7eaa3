// The README's test command: builds, type-checks and tests every package, then prints one closing
// line, "Tests: N passed, N failed", whatever happened before it. Every package's tasks run even
// when another package fails (turbo --continue), so one failure never hides the rest.
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { summarise, testPackages } from "./test-summary.mjs";

for (const pkg of testPackages()) rmSync(pkg.report, { force: true });

const turbo = spawnSync("turbo", ["run", "build", "typecheck", "test", "--continue", "--output-logs=errors-only", ...process.argv.slice(2)], {
	stdio: "inherit",
	env: { TURBO_TELEMETRY_DISABLED: "1", ...process.env },
});
const { passed, failed, skipped, missing } = summarise();
for (const name of missing) console.log(`${name}: no test report (its build, type-check or test run failed before reporting); counted as 1 failed`);
const failedTotal = failed + missing.length + (turbo.status !== 0 && failed + missing.length === 0 ? 1 : 0);
if (turbo.status !== 0 && failed + missing.length === 0) console.log(`a build or type-check task failed (turbo exit ${turbo.status ?? turbo.signal}); counted as 1 failed`);
console.log(`Tests: ${passed} passed, ${failedTotal} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failedTotal > 0 || passed === 0 ? 1 : 0);
