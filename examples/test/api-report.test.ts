/**
 * The API report (scripts/api-report.mjs, `pnpm api-report`): every entry point of every
 * published package has a committed `api/<entry>.api.md`, and the built surface equals it. A
 * change to an export that was not followed by `pnpm api-report` fails here, naming the report.
 * The generator itself is checked on a temporary workspace: names sorted, kinds, deprecation,
 * private members and comments left out, a removed entry's report flagged.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script of the repository, without type declarations.
import { apiReports, reportedPackages, staleReports } from "../../scripts/api-report.mjs";

const repository = fileURLToPath(new URL("../..", import.meta.url));
const workspace = mkdtempSync(join(tmpdir(), "pi-api-report-"));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

function writePackage(folder: string, manifest: object, files: Record<string, string>): void {
	const path = join(workspace, "packages", folder);
	mkdirSync(join(path, "dist"), { recursive: true });
	writeFileSync(join(path, "package.json"), JSON.stringify(manifest));
	for (const [file, text] of Object.entries(files)) writeFileSync(join(path, file), text);
}

describe("the committed API reports", () => {
	it("cover every typed entry point of every published package", () => {
		const entries = (reportedPackages() as { name: string; entries: { subpath: string }[] }[]).flatMap((pkg) =>
			pkg.entries.map((entry) => `${pkg.name} ${entry.subpath}`),
		);
		expect(entries).toEqual(expect.arrayContaining(["@pi/ai .", "@pi/ai ./testing", "@pi/agent-core .", "@pi/agent-core ./proxy-server", "@pi/session-postgres .", "@pi/cli ."]));
	});

	it("are checked after every reported package is built (each is a dependency of @pi/examples, or its build is in turbo.json's @pi/examples#test)", () => {
		const manifest = JSON.parse(readFileSync(join(repository, "examples", "package.json"), "utf8")) as Record<string, Record<string, string> | undefined>;
		const turbo = JSON.parse(readFileSync(join(repository, "turbo.json"), "utf8")) as { tasks: Record<string, { dependsOn?: string[] }> };
		const before = new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.devDependencies ?? {})]);
		for (const task of turbo.tasks["@pi/examples#test"]?.dependsOn ?? []) if (task.endsWith("#build")) before.add(task.slice(0, -"#build".length));
		const unordered = (reportedPackages() as { name: string }[]).map((pkg) => pkg.name).filter((name) => !before.has(name));
		expect(unordered, `add "${unordered[0]}#build" to the dependsOn of "@pi/examples#test" in turbo.json, so that its .d.ts exist before the check`).toEqual([]);
	});

	it("equal the built surface (after changing an export, run `pnpm build && pnpm api-report` and commit the reports)", () => {
		const stale: string[] = staleReports();
		expect(stale, `The public surface differs from its API report:\n${stale.join("\n")}\nRun \`pnpm build && pnpm api-report\` and commit the reports.`).toEqual([]);
	});
});

describe("the generator", () => {
	writePackage(
		"demo",
		{ name: "@demo/lib", exports: { ".": { types: "./dist/index.d.ts" }, "./extra": { types: "./dist/extra.d.ts" }, "./package.json": "./package.json" } },
		{
			"dist/index.d.ts": [
				"/** Adds. */",
				"export declare function add(a: number, b: number): number;",
				"/** @deprecated Use `add`. */",
				"export declare const plus: typeof add;",
				"export interface Options {\n    /** A comment that the report drops. */\n    depth?: number;\n}",
				"export declare class Counter {\n    private count;\n    #secret;\n    increment(): number;\n}",
				"export type Mode = \"a\" | \"b\";",
				'export { add as sum };',
			].join("\n"),
			"dist/extra.d.ts": "export declare const EXTRA = 1;\n",
		},
	);
	writePackage("internal", { name: "@demo/private", private: true, exports: { ".": { types: "./dist/index.d.ts" } } }, { "dist/index.d.ts": "export declare const X = 1;\n" });

	it("writes one report per typed entry of each published package, exports sorted, with kind and declaration", () => {
		const reports: Map<string, string> = apiReports(workspace);
		expect([...reports.keys()]).toEqual(["packages/demo/api/extra.api.md", "packages/demo/api/index.api.md"]);
		const index = reports.get("packages/demo/api/index.api.md") as string;
		expect(index).toContain('## API Report File for "@demo/lib"');
		const headers = index.split("\n").filter((line) => line.startsWith("// "));
		expect(headers).toEqual(["// Counter: class", "// Mode: type", "// Options: interface", "// add: function", "// plus: variable (@deprecated)", "// sum: function"]);
		expect(index).toContain("export declare class Counter {\n    increment(): number;\n}");
		expect(index).toContain("export interface Options {\n    depth?: number;\n}");
		expect(index).not.toContain("comment");
		expect(reports.get("packages/demo/api/extra.api.md")).toContain('## API Report File for "@demo/lib/extra"');
	});

	it("is deterministic", () => {
		expect([...apiReports(workspace)]).toEqual([...apiReports(workspace)]);
	});

	it("flags a missing report, a changed one and one whose entry is gone", () => {
		mkdirSync(join(workspace, "packages/demo/api"), { recursive: true });
		const reports: Map<string, string> = apiReports(workspace);
		writeFileSync(join(workspace, "packages/demo/api/index.api.md"), `${reports.get("packages/demo/api/index.api.md")}changed`);
		writeFileSync(join(workspace, "packages/demo/api/gone.api.md"), "old");
		expect(staleReports(workspace)).toEqual([
			"packages/demo/api/extra.api.md (missing)",
			"packages/demo/api/index.api.md (differs)",
			"packages/demo/api/gone.api.md (no such entry point any more)",
		]);
	});

	it("names the missing .d.ts when a package is not built", () => {
		writePackage("unbuilt", { name: "@demo/unbuilt", exports: { ".": { types: "./dist/index.d.ts" } } }, {});
		expect(() => apiReports(workspace)).toThrow("api-report: packages/unbuilt/dist/index.d.ts is missing; run `pnpm build` first");
		rmSync(join(workspace, "packages/unbuilt"), { recursive: true });
	});
});
