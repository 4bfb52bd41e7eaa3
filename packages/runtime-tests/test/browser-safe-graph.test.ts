import { describe, expect, it } from "vitest";
import { bundleForBrowser } from "./browser-bundle.js";

// The browser entries: everything an app in a browser or a worker may import.
const entries = ["@pi/ai", "@pi/agent-core"];

describe("the module graph reachable from the browser entries", () => {
	for (const entry of entries) {
		it(`${entry} imports no Node builtin, directly or lazily`, async () => {
			const bundle = await bundleForBrowser(`export * from "${entry}";`);
			// The graph was walked: the package's own sources are in it.
			expect(Object.keys(bundle.metafile.inputs).some((input) => input.includes("/src/"))).toBe(true);
			expect(bundle.builtinImports).toEqual([]);
			const external = Object.values(bundle.metafile.inputs).flatMap((input) => input.imports.filter((i) => i.external).map((i) => i.path));
			expect(external).toEqual([]);
		});

		it(`${entry} uses no Buffer global`, async () => {
			// Minified, so comments and TSDoc examples cannot trip the check; identifiers stay.
			const bundle = await bundleForBrowser(`export * from "${entry}";`, { minify: true });
			expect(bundle.code.length).toBeGreaterThan(1000);
			expect(bundle.code.match(/\bBuffer\b/g) ?? []).toEqual([]);
		});
	}

	it("the guard catches a node: import and a bare builtin, naming the importer", async () => {
		const bundle = await bundleForBrowser(`import "node:fs"; import "path"; export * from "@pi/ai";`);
		expect(bundle.builtinImports.map((i) => i.path)).toEqual(["node:fs", "path"]);
		expect(bundle.builtinImports[0]?.importer).toContain("entry.ts");
	});

	it("the Node-only entry @pi/ai/testing is caught, proving the walk reaches lazy imports", async () => {
		const bundle = await bundleForBrowser(`export * from "@pi/ai/testing";`);
		expect(bundle.builtinImports.map((i) => i.path)).toContain("node:http");
	});
});
