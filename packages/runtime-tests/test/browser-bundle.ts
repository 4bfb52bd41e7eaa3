import { builtinModules } from "node:module";
import { fileURLToPath } from "node:url";
import { build, type Metafile, type Plugin } from "esbuild";

/** The folder of this package: bundles resolve `@pi/*` from here, as an app depending on them would. */
export const packageDir = fileURLToPath(new URL("..", import.meta.url));

const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/** One import of a Node builtin found in the graph: who imported what. */
export interface BuiltinImport {
	importer: string;
	path: string;
}

/** What bundling an entry for a browser gave. */
export interface BrowserBundle {
	code: string;
	metafile: Metafile;
	builtinImports: BuiltinImport[];
}

/**
 * Bundles `source` (an ES module importing the packages) for the browser, from the packages'
 * sources (the `development` condition, then `browser`), dynamic imports included. Imports of Node
 * builtins are recorded and left external instead of failing the build, so one run names them all.
 */
export async function bundleForBrowser(source: string, options: { minify?: boolean; conditions?: string[] } = {}): Promise<BrowserBundle> {
	const builtinImports: BuiltinImport[] = [];
	const recordBuiltins: Plugin = {
		name: "record-node-builtins",
		setup(b) {
			b.onResolve({ filter: /.*/ }, (args) => {
				if (!builtins.has(args.path) && !args.path.startsWith("node:")) return undefined;
				builtinImports.push({ importer: args.importer, path: args.path });
				return { path: args.path, external: true };
			});
		},
	};
	const result = await build({
		stdin: { contents: source, resolveDir: packageDir, sourcefile: "entry.ts", loader: "ts" },
		bundle: true,
		write: false,
		format: "esm",
		platform: "browser",
		target: "es2022",
		conditions: options.conditions ?? ["development", "browser"],
		minify: options.minify ?? false,
		metafile: true,
		logLevel: "silent",
		plugins: [recordBuiltins],
	});
	const code = result.outputFiles[0]?.text ?? "";
	return { code, metafile: result.metafile, builtinImports };
}
