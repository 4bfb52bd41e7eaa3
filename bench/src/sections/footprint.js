/**
 * 2. Footprint: what an application's `node_modules` gains by installing each library. Ours are
 * packed with `pnpm pack` and installed from the tarballs with `npm i` into an empty folder; the
 * reference is installed from the registry the same way. The reference install is cached in a temp
 * folder keyed by its version, since it does not change between runs.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { BENCH_DIR } from "../lib/child.js";
import { REFERENCE_VERSION } from "../lib/libraries.js";

const run = promisify(execFile);
const NPM_FLAGS = ["--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"];

/**
 * Bytes (sum of file sizes) and package count of a `node_modules` tree. Packages are counted
 * wherever they sit, nested `node_modules` included.
 * @param {string} nodeModules
 * @returns {{ bytes: number, packages: number, names: string[] }}
 */
export function measureNodeModules(nodeModules) {
	let bytes = 0;
	/** @type {string[]} */
	const names = [];
	const sizeOf = (/** @type {string} */ dir) => {
		for (const entry of readdirSync(dir, { withFileTypes: true })) {
			const path = join(dir, entry.name);
			if (entry.isDirectory()) sizeOf(path);
			else if (entry.isFile()) bytes += statSync(path).size;
		}
	};
	const packagesIn = (/** @type {string} */ dir) => {
		if (!existsSync(dir)) return;
		for (const entry of readdirSync(dir, { withFileTypes: true })) {
			if (!entry.isDirectory() || entry.name.startsWith(".")) continue;
			const path = join(dir, entry.name);
			if (entry.name.startsWith("@")) {
				for (const scoped of readdirSync(path, { withFileTypes: true })) {
					if (scoped.isDirectory()) {
						names.push(`${entry.name}/${scoped.name}`);
						packagesIn(join(path, scoped.name, "node_modules"));
					}
				}
			} else {
				names.push(entry.name);
				packagesIn(join(path, "node_modules"));
			}
		}
	};
	sizeOf(nodeModules);
	packagesIn(nodeModules);
	return { bytes, packages: names.length, names: names.sort() };
}

/** An empty npm project folder. @param {string} dir */
function emptyProject(dir) {
	mkdirSync(dir, { recursive: true });
	writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "footprint-probe", version: "0.0.0", private: true }));
}

/**
 * Installs our packed tarballs into a fresh temp folder and measures it.
 * @returns {Promise<{ bytes: number, packages: number, names: string[], tarballBytes: Record<string, number> }>}
 */
async function measureOurs() {
	const work = mkdtempSync(join(tmpdir(), "pi-bench-ours-"));
	try {
		const packs = join(work, "packs");
		mkdirSync(packs);
		/** @type {Record<string, number>} */
		const tarballBytes = {};
		const tarballs = [];
		for (const pkg of ["ai", "agent"]) {
			const before = new Set(readdirSync(packs));
			await run("pnpm", ["pack", "--pack-destination", packs], { cwd: join(BENCH_DIR, "..", "packages", pkg) });
			const file = readdirSync(packs).find((name) => !before.has(name));
			if (!file) throw new Error(`pnpm pack produced no tarball for packages/${pkg}`);
			tarballBytes[file] = statSync(join(packs, file)).size;
			tarballs.push(join(packs, file));
		}
		const project = join(work, "app");
		emptyProject(project);
		// Both tarballs in one install: @pi/agent-core's dependency on @pi/ai is met by the local @pi/ai.
		await run("npm", ["i", ...NPM_FLAGS, ...tarballs], { cwd: project });
		return { ...measureNodeModules(join(project, "node_modules")), tarballBytes };
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}

/**
 * Installs (or reuses) the reference from the registry and measures it.
 * @returns {Promise<{ bytes: number, packages: number, names: string[], cached: boolean }>}
 */
async function measureReference() {
	const project = join(tmpdir(), `pi-bench-reference-${REFERENCE_VERSION}`);
	const marker = join(project, ".installed");
	let cached = existsSync(marker);
	if (!cached) {
		rmSync(project, { recursive: true, force: true });
		emptyProject(project);
		await run("npm", ["i", ...NPM_FLAGS, `@mariozechner/pi-ai@${REFERENCE_VERSION}`, `@mariozechner/pi-agent-core@${REFERENCE_VERSION}`], {
			cwd: project,
			timeout: 150_000,
		});
		writeFileSync(marker, new Date().toISOString());
	}
	return { ...measureNodeModules(join(project, "node_modules")), cached };
}

/** @param {{ log: (line: string) => void }} options */
export async function measureFootprint({ log }) {
	const [ours, ref] = await Promise.all([measureOurs(), measureReference()]);
	log(`footprint: ours ${(ours.bytes / 1e6).toFixed(2)} MB / ${ours.packages} packages, reference ${(ref.bytes / 1e6).toFixed(1)} MB / ${ref.packages} packages${ref.cached ? " (cached install)" : ""}`);
	return {
		ours: { mb: ours.bytes / 1e6, packages: ours.packages, names: ours.names, tarballBytes: ours.tarballBytes },
		ref: { mb: ref.bytes / 1e6, packages: ref.packages, cachedInstall: ref.cached },
	};
}

/** Reads a JSON file, or undefined. @param {string} path */
export function readJson(path) {
	try {
		return JSON.parse(readFileSync(path, "utf8"));
	} catch {
		return undefined;
	}
}
