/**
 * The closing line of `pnpm test` ("Tests: N passed, N failed"), from scripts/test-summary.mjs,
 * on a temporary workspace: a package whose real vitest run has a failing test and a test file
 * that fails at import, a test file whose set-up (`beforeAll`) fails, and a package whose tests
 * never reported.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageFolder } from "./helpers/package-folder.js";
// @ts-expect-error: a plain .mjs script of the repository, without type declarations.
import { closingLines, summarise } from "../../scripts/test-summary.mjs";

const run = promisify(execFile);
const workspace = mkdtempSync(join(tmpdir(), "pi-test-summary-"));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

/** vitest's command-line entry. */
const vitestBin = () => join(packageFolder("vitest"), "vitest.mjs");

function writePackage(folder: string, name: string, files: Record<string, string>): string {
	const path = join(workspace, "packages", folder);
	mkdirSync(path, { recursive: true });
	writeFileSync(join(path, "package.json"), JSON.stringify({ name, private: true, type: "module", scripts: { test: "vitest run" } }));
	for (const [file, text] of Object.entries(files)) writeFileSync(join(path, file), text);
	return path;
}

beforeAll(async () => {
	const failing = writePackage("failing", "failing-package", {
		"math.test.js": 'test("adds", () => expect(1 + 1).toBe(2));\ntest("subtracts", () => expect(2 - 1).toBe(0));\n',
		"broken.test.js": 'throw new Error("fails at import");\n',
		// vitest reports the tests of a file whose beforeAll throws as skipped: they never ran.
		"setup.test.js": 'beforeAll(() => { throw new Error("no browser"); });\ntest("one", () => {});\ntest("two", () => {});\n',
	});
	writePackage("silent", "silent-package", { "never.test.js": 'test("never run", () => {});\n' });
	// A real vitest run writes the report the summary reads; it fails, as it should.
	const result = await run(process.execPath, [vitestBin(), "run", "--root", failing, "--globals", "--reporter=json", "--outputFile=test-results.json"], { cwd: failing }).then(
		() => "passed",
		() => "failed",
	);
	expect(result).toBe("failed");
}, 120_000);

describe("the closing line of pnpm test", () => {
	it("counts failed tests, test files that fail at import or in set-up, and packages that never reported", () => {
		const summary = summarise(workspace);
		// 1 failed test, 1 file failed at import, and the 2 tests whose beforeAll failed: failed, not skipped.
		expect(summary).toEqual({ passed: 1, failed: 4, skipped: 0, missing: ["silent-package"] });
		const { lines, exitCode } = closingLines(summary, 1);
		expect(lines).toEqual([
			"silent-package: no test report (its build, type-check or test run failed before reporting); counted as 1 failed",
			"Tests: 1 passed, 5 failed",
		]);
		expect(exitCode).toBe(1);
	});

	it("counts a failed build or type-check when every test passed", () => {
		expect(closingLines({ passed: 12, failed: 0, skipped: 0, missing: [] }, 2)).toEqual({
			lines: ["a build or type-check task failed (turbo exit 2); counted as 1 failed", "Tests: 12 passed, 1 failed"],
			exitCode: 1,
		});
	});

	it("is green only when something passed and nothing failed", () => {
		expect(closingLines({ passed: 12, failed: 0, skipped: 2, missing: [] }, 0)).toEqual({ lines: ["Tests: 12 passed, 0 failed, 2 skipped"], exitCode: 0 });
		expect(closingLines({ passed: 0, failed: 0, skipped: 0, missing: [] }, 0).exitCode).toBe(1);
	});
});
