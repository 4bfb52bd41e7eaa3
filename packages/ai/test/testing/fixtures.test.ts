import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { locateFixtures } from "../../src/testing/fixtures.js";
import { fixturePath, fixturesDir, listFixtures, loadFixture } from "../../src/testing/index.js";

const saved = process.env.PI_FIXTURES_DIR;
afterEach(() => {
	if (saved === undefined) delete process.env.PI_FIXTURES_DIR;
	else process.env.PI_FIXTURES_DIR = saved;
});

describe("fixtures", () => {
	it("finds the captures inside the repository by default", () => {
		delete process.env.PI_FIXTURES_DIR;
		const repoRoot = resolve(import.meta.dirname, "../../../..");
		expect(fixturesDir()).toBe(join(repoRoot, "fixtures"));
		expect(fixturePath("anthropic-messages", "text-basic")).toBe(join(fixturesDir(), "anthropic-messages", "text-basic.sse"));
		expect(fixturePath("anthropic-messages", "text-basic.sse")).toBe(fixturePath("anthropic-messages", "text-basic"));
	});

	it("loads a capture's bytes unchanged, CRLF included", () => {
		const bytes = loadFixture("google-generative-ai", "text-basic");
		expect(bytes.length).toBe(1012); // the size MANIFEST.md records
		expect(bytes.includes("\r\n\r\n")).toBe(true);
	});

	it("lists captures by API, sorted", () => {
		const gemini = listFixtures("google-generative-ai");
		expect(gemini).toHaveLength(15);
		expect(gemini.map((fixture) => fixture.name)).toEqual([...gemini.map((fixture) => fixture.name)].sort());
		expect(listFixtures("no-such-api")).toEqual([]);
	});

	it("names the captures that exist when one is missing", () => {
		expect(() => loadFixture("openai-completions", "text-basci")).toThrow(/No fixture openai-completions\/text-basci .*Captures for openai-completions: .*text-basic/);
	});

	it("uses PI_FIXTURES_DIR when set", () => {
		const dir = mkdtempSync(join(tmpdir(), "pi-fixtures-"));
		mkdirSync(join(dir, "my-api"));
		writeFileSync(join(dir, "my-api", "hello.sse"), "data: hi\n\n");
		process.env.PI_FIXTURES_DIR = dir;
		expect(loadFixture("my-api", "hello").toString()).toBe("data: hi\n\n");
		expect(listFixtures()).toEqual([{ api: "my-api", name: "hello", path: join(dir, "my-api", "hello.sse") }]);
	});
});

describe("where the captures are found outside this repository", () => {
	const root = mkdtempSync(join(tmpdir(), "pi-fixtures-locate-"));
	afterAll(() => rmSync(root, { recursive: true, force: true }));
	/** Installs a minimal @pi/fixtures (its package.json is what resolution needs) under `project`. */
	function installFixtures(project: string): string {
		const dir = join(project, "node_modules", "@pi", "fixtures");
		mkdirSync(dir, { recursive: true });
		writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "@pi/fixtures", type: "module", exports: { "./package.json": "./package.json" } }));
		return dir;
	}
	/** Where @pi/ai's built testing entry would lie when installed in `project`. */
	const installedAi = (project: string) => join(project, "node_modules", "@pi", "ai", "dist", "testing", "index.js");

	it("uses @pi/fixtures installed in the current project", () => {
		const app = join(root, "app");
		const installed = installFixtures(app);
		expect(locateFixtures(installedAi(join(root, "global")), app)).toBe(installed);
	});

	it("uses @pi/fixtures installed beside @pi/ai when the current folder has none", () => {
		const app = join(root, "beside");
		const installed = installFixtures(app);
		expect(locateFixtures(installedAi(app), join(root, "nowhere"))).toBe(installed);
	});

	it("is not fooled by another pnpm workspace with a fixtures folder", () => {
		const app = join(root, "workspace");
		mkdirSync(join(app, "fixtures"), { recursive: true });
		writeFileSync(join(app, "pnpm-workspace.yaml"), "packages: []\n");
		writeFileSync(join(app, "fixtures", "package.json"), JSON.stringify({ name: "their-fixtures" }));
		const installed = installFixtures(app);
		expect(locateFixtures(installedAi(app), app)).toBe(installed);
	});

	it("says what to install when there is none", () => {
		const app = join(root, "bare");
		mkdirSync(app, { recursive: true });
		expect(() => locateFixtures(installedAi(app), app)).toThrow(/No recorded captures found: install the @pi\/fixtures package next to your tests \(npm install --save-dev @pi\/fixtures\), or set PI_FIXTURES_DIR/);
	});

	it("inside this repository, uses its fixtures folder", () => {
		const repoRoot = resolve(import.meta.dirname, "../../../..");
		expect(locateFixtures(join(repoRoot, "packages/ai/src/testing/fixtures.ts"), tmpdir())).toBe(join(repoRoot, "fixtures"));
	});
});
