// Writes the API report of every entry point of every workspace package: one
// `<package>/api/<entry>.api.md` per `exports` entry that has types, in the style of API
// Extractor's `*.api.md`. Each export is listed by name with its kind and its declaration as the
// built `.d.ts` says it (comments and private class members left out), sorted by name, so that
// a change to the public surface shows as a small diff that someone reviews.
//
// Why from the built `.d.ts`: that is what an app compiles against. Run `pnpm build` first.
//
// Usage (from the repository root):
//   node scripts/api-report.mjs          writes the reports (`pnpm api-report`)
//   node scripts/api-report.mjs --check  exits 1, naming each report that differs or is missing
// examples/test/api-report.test.ts runs the check in `pnpm test`.
//
// Deterministic: nothing depends on the machine, the time or the order files are found in.
// One TypeScript program over every entry reads the declarations once: about 2 s of CPU.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const repositoryRoot = fileURLToPath(new URL("..", import.meta.url));

/** The folders (relative to the root) holding the packages whose surface is reported. */
const PACKAGE_PARENTS = ["packages", "."];
const PACKAGE_FOLDERS_AT_ROOT = ["fixtures"];

/**
 * Every published workspace package with typed entry points: its folder, name, and each entry
 * (`.` → `index`, `./testing/vitest` → `testing-vitest`) with the `.d.ts` it points at.
 */
export function reportedPackages(root = repositoryRoot) {
	const folders = [
		...readdirSync(join(root, PACKAGE_PARENTS[0])).map((name) => join(PACKAGE_PARENTS[0], name)),
		...PACKAGE_FOLDERS_AT_ROOT,
	].sort();
	const packages = [];
	for (const folder of folders) {
		const manifestPath = join(root, folder, "package.json");
		if (!existsSync(manifestPath)) continue;
		const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
		if (manifest.private || !manifest.exports) continue;
		const entries = [];
		for (const [subpath, target] of Object.entries(manifest.exports)) {
			const types = typeof target === "object" && target !== null ? target.types : undefined;
			if (typeof types !== "string") continue;
			const name = subpath === "." ? "index" : subpath.replace(/^\.\//, "").replaceAll("/", "-");
			entries.push({ subpath, name, types: resolve(root, folder, types) });
		}
		if (entries.length > 0) packages.push({ folder, name: manifest.name, entries: entries.sort((a, b) => compare(a.name, b.name)) });
	}
	return packages;
}

/** A plain code-point comparison: the same order on every machine and locale. */
function compare(a, b) {
	return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The report files for `root`: a map from the path of each report (relative to the root, with
 * `/`) to its contents. Throws, naming the file, when an entry's `.d.ts` is missing.
 */
export function apiReports(root = repositoryRoot) {
	const packages = reportedPackages(root);
	const files = packages.flatMap((pkg) => pkg.entries.map((entry) => entry.types));
	for (const file of files) {
		if (!existsSync(file)) throw new Error(`api-report: ${relative(root, file)} is missing; run \`pnpm build\` first`);
	}
	// `noLib`, `types: []`: the reports print declarations as written and resolve only their own
	// modules; loading the standard library and @types/node would only cost time.
	const program = ts.createProgram(files, { noEmit: true, skipLibCheck: true, noLib: true, types: [], module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022 });
	const checker = program.getTypeChecker();
	const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });
	const reports = new Map();
	for (const pkg of packages) {
		for (const entry of pkg.entries) {
			const source = program.getSourceFile(entry.types);
			const moduleSymbol = source && checker.getSymbolAtLocation(source);
			const exports = moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : [];
			const items = exports
				.map((symbol) => describeExport(symbol, checker, printer, root))
				.sort((a, b) => compare(a.name, b.name));
			const path = `${pkg.folder}/api/${entry.name}.api.md`.split(sep).join("/");
			reports.set(path, render(pkg.name, entry.subpath, items));
		}
	}
	return reports;
}

/** One export: its name, its kind, whether it is deprecated, and its declarations as text. */
function describeExport(symbol, checker, printer, root) {
	const name = symbol.getName();
	const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
	const declarations = target.declarations ?? [];
	const deprecated = declarations.some((declaration) => ts.getJSDocTags(declaration).some((tag) => tag.tagName.text === "deprecated"));
	const external = declarations.find((declaration) => isExternal(declaration.getSourceFile().fileName, root));
	const text = external ? [reExport(name, target, external)] : declarations.map((declaration) => declarationText(declaration, printer));
	return { name, kind: kindOf(target), deprecated, text };
}

/** How an export of a dependency reads: `export { Static } from "typebox"`, `export * as Type from "typebox"`. */
function reExport(name, target, declaration) {
	const from = packageOf(declaration.getSourceFile().fileName);
	// A whole module re-exported as a namespace: its symbol is named by the module's file path.
	if (ts.isSourceFile(declaration)) return `export * as ${name} from "${from}";`;
	const local = target.getName();
	return `export { ${local === name ? name : `${local} as ${name}`} } from "${from}";`;
}

/** A declaration outside the workspace packages (a dependency such as typebox). */
function isExternal(fileName, root) {
	const path = relative(root, fileName).split(sep).join("/");
	return path.startsWith("..") || path.includes("node_modules/");
}

/** The package name in a `node_modules` path, e.g. `typebox` or `@scope/name`. */
function packageOf(fileName) {
	const parts = fileName.split(sep).join("/").split("/node_modules/").pop().split("/");
	return parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0];
}

const KINDS = [
	[ts.SymbolFlags.Class, "class"],
	[ts.SymbolFlags.Interface, "interface"],
	[ts.SymbolFlags.TypeAlias, "type"],
	[ts.SymbolFlags.Function, "function"],
	[ts.SymbolFlags.Enum, "enum"],
	[ts.SymbolFlags.Variable, "variable"],
	[ts.SymbolFlags.Module, "namespace"],
];

/** The kinds of a symbol, e.g. `class` or `interface, variable` (one name can be both). */
function kindOf(symbol) {
	const kinds = KINDS.filter(([flag]) => symbol.flags & flag).map(([, kind]) => kind);
	// A class merged with an interface of the same name (declaration merging) is a class.
	if (kinds.includes("class")) return "class";
	return kinds.length > 0 ? kinds.join(", ") : "unknown";
}

/** A declaration as the `.d.ts` writes it, without comments and without private class members. */
function declarationText(declaration, printer) {
	const sourceFile = declaration.getSourceFile();
	let node = declaration;
	if (ts.isVariableDeclaration(node)) {
		const statement = node.parent.parent;
		node = ts.isVariableStatement(statement) && statement.declarationList.declarations.length === 1 ? statement : node;
	}
	if (ts.isClassDeclaration(node)) {
		const members = node.members.filter((member) => !isPrivate(member));
		node = ts.factory.updateClassDeclaration(node, node.modifiers, node.name, node.typeParameters, node.heritageClauses, members);
	}
	return printer.printNode(ts.EmitHint.Unspecified, node, sourceFile);
}

/** `private x;` and `#private;` members: not part of the surface. */
function isPrivate(member) {
	if (member.name && ts.isPrivateIdentifier(member.name)) return true;
	return (ts.getCombinedModifierFlags(member) & ts.ModifierFlags.Private) !== 0;
}

/** The report of one entry point. */
function render(packageName, subpath, items) {
	const entry = subpath === "." ? packageName : `${packageName}/${subpath.replace(/^\.\//, "")}`;
	const lines = [
		`## API Report File for "${entry}"`,
		"",
		"> Do not edit this file. It is generated by `pnpm api-report` (scripts/api-report.mjs) from the",
		"> built `.d.ts`, and `pnpm test` fails when the surface differs from it. See docs/api-report.md.",
		"",
		`${items.length} exports.`,
		"",
		"```ts",
	];
	for (const item of items) {
		lines.push(`// ${item.name}: ${item.kind}${item.deprecated ? " (@deprecated)" : ""}`);
		for (const text of item.text) lines.push(text);
		lines.push("");
	}
	if (items.length > 0) lines.pop();
	lines.push("```", "");
	return lines.join("\n");
}

/** The report files now on disk, by relative path. */
export function committedReports(root = repositoryRoot) {
	const found = new Map();
	for (const pkg of reportedPackagesOnDisk(root)) {
		const folder = join(root, pkg, "api");
		if (!existsSync(folder)) continue;
		for (const file of readdirSync(folder).filter((name) => name.endsWith(".api.md")).sort()) {
			found.set(`${pkg}/api/${file}`.split(sep).join("/"), readFileSync(join(folder, file), "utf8"));
		}
	}
	return found;
}

/** Every package folder that may hold reports (including one whose entries are gone). */
function reportedPackagesOnDisk(root) {
	return [...readdirSync(join(root, PACKAGE_PARENTS[0])).map((name) => join(PACKAGE_PARENTS[0], name)), ...PACKAGE_FOLDERS_AT_ROOT]
		.filter((folder) => existsSync(join(root, folder, "package.json")))
		.sort();
}

/** The reports that differ from the surface: changed, missing, or left over from a removed entry. */
export function staleReports(root = repositoryRoot) {
	const expected = apiReports(root);
	const committed = committedReports(root);
	const stale = [];
	for (const [path, text] of expected) {
		if (!committed.has(path)) stale.push(`${path} (missing)`);
		else if (committed.get(path) !== text) stale.push(`${path} (differs)`);
	}
	for (const path of committed.keys()) if (!expected.has(path)) stale.push(`${path} (no such entry point any more)`);
	return stale;
}

function main() {
	if (process.argv.includes("--check")) {
		const stale = staleReports();
		if (stale.length === 0) return;
		console.error(`The public surface differs from its API report:\n${stale.map((line) => `  ${line}`).join("\n")}\nRun \`pnpm build && pnpm api-report\` and commit the reports.`);
		process.exit(1);
	}
	const expected = apiReports();
	for (const path of committedReports().keys()) if (!expected.has(path)) rmSync(join(repositoryRoot, path));
	for (const [path, text] of expected) {
		mkdirSync(dirname(join(repositoryRoot, path)), { recursive: true });
		writeFileSync(join(repositoryRoot, path), text);
	}
	console.log(`api-report: wrote ${expected.size} reports`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
