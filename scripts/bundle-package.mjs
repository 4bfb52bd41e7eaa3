// Bundles a workspace package's entry points into dist/ with esbuild, next to the .d.ts files
// that `tsc --emitDeclarationOnly` writes there.
//
// Why: Node's ES module loader pays about half a millisecond per file. `@pi/ai` is some forty
// small source files, and a cheap import is one of its promises; bundling each entry (with shared
// chunks, and the lazily loaded providers as their own chunks) halves the import overhead.
// The entries are the package's `exports` (their `development` source paths, each once), so the
// published layout stays exactly what `exports` names. A `bin` target `./dist/<name>.js` is bundled from
// `./src/<name>.ts` (it has no `development` path of its own). Dependencies stay external.
//
// Usage (from a package folder): node ../../scripts/bundle-package.mjs
import { existsSync, readFileSync, rmSync } from "node:fs";
import { build } from "esbuild";

const pkg = JSON.parse(readFileSync("package.json", "utf8"));
// A plain string target (`"./package.json": "./package.json"`) is a file shipped as is, not code.
const sources = Object.values(pkg.exports).filter((target) => typeof target !== "string").map((target) => {
	if (!target.development) throw new Error(`${pkg.name}: every export needs a "development" source path`);
	return target.development;
});
// An alias export (`./anthropic` beside `./anthropic-messages`) names the same source: bundle it
// once. Given twice, esbuild treats the copies as two entries sharing all their code, and moves the
// module's body into a shared chunk behind two re-exporting files.
const entryPoints = [...new Set(sources)];
for (const target of Object.values(pkg.bin ?? {})) {
	const source = target.replace(/^\.\/dist\//, "./src/").replace(/\.js$/, ".ts");
	if (source === target || !existsSync(source)) throw new Error(`${pkg.name}: bin ${target} needs its source at ${source}`);
	entryPoints.push(source);
}

// Chunk names carry content hashes: drop the previous build's, or dist/ collects stale ones.
rmSync("dist/chunks", { recursive: true, force: true });

await build({
	entryPoints,
	outbase: "src",
	outdir: "dist",
	bundle: true,
	splitting: true,
	format: "esm",
	platform: "node",
	target: "node20",
	packages: "external",
	sourcemap: true,
	chunkNames: "chunks/[name]-[hash]",
	logLevel: "warning",
});
