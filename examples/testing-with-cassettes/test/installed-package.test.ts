/**
 * Outside this monorepo, `@pi/ai/testing`'s fixture helpers read an installed `@pi/fixtures`, and
 * say what to install without it. Both packages are packed as for publishing and unpacked into a
 * temporary project outside the repository, as `npm install` of the tarballs would lay them out.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const repo = join(import.meta.dirname, "..", "..", "..");
const project = realpathSync(mkdtempSync(join(tmpdir(), "pi-installed-")));
const modules = join(project, "node_modules");
afterAll(() => rmSync(project, { recursive: true, force: true }));

/** `pnpm pack`s the workspace package in `folder` and unpacks it as node_modules/<name>. */
async function install(folder: string, name: string): Promise<void> {
	const packs = join(project, "packs");
	mkdirSync(packs, { recursive: true });
	await run("pnpm", ["pack", "--pack-destination", packs], { cwd: join(repo, folder) });
	const tarball = readdirSync(packs).find((file) => file.startsWith(name.replace("@", "").replace("/", "-")));
	if (!tarball) throw new Error(`no tarball for ${name} in ${packs}`);
	const target = join(modules, name);
	mkdirSync(target, { recursive: true });
	await run("tar", ["-xzf", join(packs, tarball), "-C", target, "--strip-components=1"]);
}

/**
 * Runs an ES module script in the temporary project, with no PI_* variables and no NODE_PATH (the
 * package-manager shim that started vitest points it into this repository's node_modules).
 */
async function inProject(script: string): Promise<string> {
	const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("PI_") && key !== "NODE_OPTIONS" && key !== "NODE_PATH"));
	const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: project, env });
	return stdout.trim();
}

beforeAll(async () => {
	await install("packages/ai", "@pi/ai");
	await install("fixtures", "@pi/fixtures");
	// @pi/ai's own dependencies, as npm would install them: linked from this repository's copies.
	for (const dependency of ["typebox", "eventsource-parser"]) {
		symlinkSync(realpathSync(join(repo, "packages", "ai", "node_modules", dependency)), join(modules, dependency), "dir");
	}
}, 120_000);

describe("an installed @pi/fixtures", () => {
	it("is what loadFixture and listFixtures read, outside the monorepo", async () => {
		const script = `
			import { fixturesDir, listFixtures, loadFixture } from "@pi/ai/testing";
			import { fixtures } from "@pi/fixtures";
			const bytes = loadFixture("anthropic-messages", "tool-use-parallel");
			console.log(JSON.stringify({
				dir: fixturesDir(),
				count: listFixtures().length,
				same: bytes.equals(fixtures.load("anthropic-messages", "tool-use-parallel")),
				parallel: fixtures.list({ feature: "parallel-tool-calls" }).length,
			}));`;
		const result = JSON.parse(await inProject(script)) as { dir: string; count: number; same: boolean; parallel: number };
		expect(result.dir).toBe(join(modules, "@pi", "fixtures"));
		expect(result.count).toBe(71);
		expect(result.same).toBe(true);
		expect(result.parallel).toBeGreaterThanOrEqual(8);
	});

	it("ships its manifest, notice and licences", () => {
		const files = readdirSync(join(modules, "@pi", "fixtures"));
		for (const file of ["MANIFEST.md", "NOTICE.md", "LICENSES", "catalog.json", "index.d.ts", "anthropic-messages"]) expect(files).toContain(file);
		expect(files).not.toContain("test");
		expect(readdirSync(join(modules, "@pi", "fixtures", "LICENSES")).sort()).toEqual(["Apache-2.0.txt", "MIT-mirascope.txt", "MIT-pydantic-ai.txt"]);
	});

	it("without it, the helpers say what to install", async () => {
		rmSync(join(modules, "@pi", "fixtures"), { recursive: true, force: true });
		const script = `
			import { loadFixture } from "@pi/ai/testing";
			try { loadFixture("anthropic-messages", "text-basic"); console.log("loaded"); } catch (error) { console.log(error.message); }`;
		expect(await inProject(script)).toContain("No recorded captures found: install the @pi/fixtures package next to your tests (npm install --save-dev @pi/fixtures)");
	});
});
