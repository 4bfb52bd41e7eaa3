/**
 * The CLI tests run the built binary, `dist/bin.js`, as a user would. When a source file is newer
 * than that build (while developing), bundle it again first (esbuild, under a second), so a test
 * never runs a stale build; after `pnpm build` (as in `pnpm test`) nothing is rebuilt, so no other
 * package's tests ever see dist/ change under them. The libraries it imports at run time are the
 * built `@pi/ai` and `@pi/agent-core` (turbo builds them first; locally, `pnpm build` once).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

function newestSourceMs(dir: string): number {
	let newest = 0;
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		const path = join(dir, entry.name);
		newest = Math.max(newest, entry.isDirectory() ? newestSourceMs(path) : statSync(path).mtimeMs);
	}
	return newest;
}

export default function setup(): void {
	const packageDir = fileURLToPath(new URL("../..", import.meta.url));
	for (const library of ["ai", "agent"]) {
		const entry = join(packageDir, "..", library, "dist", "index.js");
		if (!existsSync(entry)) throw new Error(`${entry} is missing: build the libraries first (pnpm build at the repository root)`);
	}
	const bin = join(packageDir, "dist", "bin.js");
	const stale = !existsSync(bin) || statSync(bin).mtimeMs < newestSourceMs(join(packageDir, "src"));
	if (stale) execFileSync(process.execPath, ["../../scripts/bundle-package.mjs"], { cwd: packageDir, stdio: "inherit" });
}
