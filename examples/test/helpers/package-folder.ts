import { existsSync, readFileSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/**
 * The real folder of an installed package, as this package resolves it (walking up from its
 * entry to the `package.json` that names it): for linking it into a temporary project, or for
 * reaching a command-line entry its `exports` do not list.
 */
export function packageFolder(name: string): string {
	const require = createRequire(import.meta.url);
	let folder: string;
	try {
		// Packages without `exports` (such as @types/node, which has no entry at all).
		folder = dirname(require.resolve(`${name}/package.json`));
	} catch {
		folder = dirname(require.resolve(name));
	}
	while (!existsSync(join(folder, "package.json")) || JSON.parse(readFileSync(join(folder, "package.json"), "utf8")).name !== name) {
		const parent = dirname(folder);
		if (parent === folder) throw new Error(`no package folder found for ${name}`);
		folder = parent;
	}
	return realpathSync(folder);
}
