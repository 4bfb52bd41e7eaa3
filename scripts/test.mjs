// The README's test command: builds, type-checks and tests every package, then prints one closing
// line, "Tests: N passed, N failed", whatever happened before it. Every package's tasks run even
// when another package fails (turbo --continue), so one failure never hides the rest.
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { closingLines, summarise, testPackages } from "./test-summary.mjs";

for (const pkg of testPackages()) rmSync(pkg.report, { force: true });

const turbo = spawnSync("turbo", ["run", "build", "typecheck", "test", "--continue", "--output-logs=errors-only", ...process.argv.slice(2)], {
	stdio: "inherit",
	env: { TURBO_TELEMETRY_DISABLED: "1", ...process.env },
});
const { lines, exitCode } = closingLines(summarise(), turbo.status ?? turbo.signal ?? 1);
for (const line of lines) console.log(line);
process.exit(exitCode);
