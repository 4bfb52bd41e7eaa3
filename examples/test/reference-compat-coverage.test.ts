import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * The type-level compatibility files are compiled by this package's typecheck task; this test
 * keeps them honest: compat-types/reference-exports.ts names every export of both reference
 * packages, and user-code.pi.ts is user-code.reference.ts with only the package names changed.
 */
const here = dirname(fileURLToPath(import.meta.url));
const compat = join(here, "..", "compat-types");
const entryOf = (packageName: string) => join(here, "..", "node_modules", packageName, "dist", "index.d.ts");
const REFERENCES = ["@mariozechner/pi-ai", "@mariozechner/pi-agent-core"];
// One program for both packages: building it is the slow part.
const program = ts.createProgram(REFERENCES.map(entryOf), { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, skipLibCheck: true, noEmit: true });

/** Every export name of a package's main entry, read from its .d.ts with the compiler. */
function exportsOf(packageName: string): { name: string; value: boolean }[] {
	const checker = program.getTypeChecker();
	const module = checker.getSymbolAtLocation(program.getSourceFile(entryOf(packageName))!)!;
	return checker.getExportsOfModule(module).map((symbol) => {
		const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
		return { name: symbol.name, value: (target.flags & ts.SymbolFlags.Value) !== 0 && !["Static", "TSchema"].includes(symbol.name) };
	});
}

describe("reference compatibility files", () => {
	const checks = readFileSync(join(compat, "reference-exports.ts"), "utf8");
	it.each([
		["@mariozechner/pi-ai", "ai"],
		["@mariozechner/pi-agent-core", "agent"],
	])("reference-exports.ts checks every export of %s", (packageName, tag) => {
		const names = exportsOf(packageName);
		expect(names.length).toBeGreaterThan(tag === "ai" ? 100 : 20);
		const unchecked = names.filter(({ name, value }) => !checks.includes(`export type ${value ? "V" : "T"}_${tag}_${name} =`));
		expect(unchecked.map(({ name }) => name)).toEqual([]);
	}, 240_000);

	it("user-code.pi.ts is user-code.reference.ts with only the package names changed", () => {
		const reference = readFileSync(join(compat, "user-code.reference.ts"), "utf8");
		const ours = readFileSync(join(compat, "user-code.pi.ts"), "utf8");
		expect(reference).toContain('from "@mariozechner/pi-ai"');
		expect(ours).toBe(reference.replaceAll("@mariozechner/pi-agent-core", "@pi/agent-core").replaceAll("@mariozechner/pi-ai", "@pi/ai"));
	});
});
