/**
 * The CLI tests run the built binary, `dist/bin.js`, as a user would: bundle it from the current
 * sources first (esbuild, well under a second), so a test never runs a stale build. The libraries
 * it imports at run time are the built `@pi/ai` and `@pi/agent-core` (turbo builds them before
 * the tests; locally, `pnpm build` once).
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

export default function setup(): void {
	const packageDir = fileURLToPath(new URL("../..", import.meta.url));
	for (const library of ["ai", "agent"]) {
		const entry = fileURLToPath(new URL(`../../../${library}/dist/index.js`, import.meta.url));
		if (!existsSync(entry)) throw new Error(`${entry} is missing: build the libraries first (pnpm build at the repository root)`);
	}
	execFileSync(process.execPath, ["../../scripts/bundle-package.mjs"], { cwd: packageDir, stdio: "inherit" });
}
