import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
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
		expect(gemini).toHaveLength(14);
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
