/**
 * Access to the recorded `.sse` captures: those of this repository (`fixtures/`) when run inside
 * it, else those of the `@pi/fixtures` package when it is installed. `@pi/ai` does not depend on
 * that package (it stays small): install it next to your tests to replay real captures.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** One recorded capture: `<api>/<name>.sse` under {@link fixturesDir}. */
export interface FixtureFile {
	/** The wire API folder, e.g. `anthropic-messages`. */
	api: string;
	/** The file name without `.sse`, e.g. `text-basic`. */
	name: string;
	/** Absolute path of the file. */
	path: string;
}

let cachedDir: string | undefined;

/**
 * The folder holding the captures, the first of:
 *
 * 1. `$PI_FIXTURES_DIR` when set;
 * 2. this monorepo's `fixtures/` folder, when this file lies inside the monorepo;
 * 3. the installed `@pi/fixtures` package: `node_modules/@pi/fixtures` in the current folder or one
 *    above it, else in `@pi/ai`'s folder or one above it.
 *
 * Throws an error saying what to install when none is found.
 */
export function fixturesDir(): string {
	const fromEnv = process.env.PI_FIXTURES_DIR;
	if (fromEnv) return resolve(fromEnv);
	cachedDir ??= locateFixtures(fileURLToPath(import.meta.url), process.cwd());
	return cachedDir;
}

/**
 * Where the captures are, seen from the file `from` and the folder `cwd` (see {@link fixturesDir}).
 * Internal: exported for tests.
 */
export function locateFixtures(from: string, cwd: string): string {
	const inRepo = repositoryFixtures(dirname(from));
	if (inRepo) return inRepo;
	const installed = installedFixtures(cwd) ?? installedFixtures(dirname(from));
	if (installed) return installed;
	throw new Error(
		`No recorded captures found: install the @pi/fixtures package next to your tests (npm install --save-dev @pi/fixtures), or set PI_FIXTURES_DIR to a folder of <api>/<name>.sse files. Looked for it from ${cwd} and from ${dirname(from)}.`,
	);
}

/**
 * `node_modules/@pi/fixtures` in `start` or a folder above it, as Node looks packages up. Only
 * real `node_modules` folders count, not `NODE_PATH` or global folders: a package manager's
 * NODE_PATH can point into some other project's store.
 */
function installedFixtures(start: string): string | undefined {
	for (let dir = resolve(start); ; dir = dirname(dir)) {
		const candidate = join(dir, "node_modules", "@pi", "fixtures");
		if (existsSync(join(candidate, "package.json"))) return candidate;
		if (dirname(dir) === dir) return undefined;
	}
}

/** `<repo>/fixtures` when a folder above `start` is this monorepo (its `fixtures/` is `@pi/fixtures`). */
function repositoryFixtures(start: string): string | undefined {
	for (let dir = start; ; dir = dirname(dir)) {
		if (existsSync(join(dir, "pnpm-workspace.yaml"))) {
			const manifest = join(dir, "fixtures", "package.json");
			if (existsSync(manifest) && readFileSync(manifest, "utf8").includes('"name": "@pi/fixtures"')) return join(dir, "fixtures");
			// Someone else's workspace (an app using pnpm): keep looking above, then for the package.
		}
		if (dirname(dir) === dir) return undefined;
	}
}

/**
 * The absolute path of `<api>/<name>.sse`; `name` may include the `.sse` extension.
 * Does not check that the file exists (see {@link loadFixture}).
 */
export function fixturePath(api: string, name: string): string {
	return join(fixturesDir(), api, name.endsWith(".sse") ? name : `${name}.sse`);
}

/**
 * The bytes of a recorded capture, unchanged (CRLF and padding included), ready for `sseResponse()`.
 *
 * Throws when the file is missing, listing the captures that exist for that API.
 *
 * @example
 * ```ts
 * server.enqueue(sseResponse(loadFixture("anthropic-messages", "tool-use-parallel")));
 * ```
 */
export function loadFixture(api: string, name: string): Buffer {
	const path = fixturePath(api, name);
	if (!existsSync(path)) {
		const known = listFixtures(api).map((fixture) => fixture.name);
		const hint = known.length > 0 ? `Captures for ${api}: ${known.join(", ")}` : `No captures found under ${join(fixturesDir(), api)}`;
		throw new Error(`No fixture ${api}/${name} at ${path}. ${hint}. Set PI_FIXTURES_DIR to use another folder.`);
	}
	return readFileSync(path);
}

/**
 * Every capture, sorted by API then name; only those of `api` when given. Missing folders give
 * an empty list.
 */
export function listFixtures(api?: string): FixtureFile[] {
	const root = fixturesDir();
	const apis = api !== undefined ? [api] : entries(root, "folders");
	const files: FixtureFile[] = [];
	for (const folder of apis) {
		const inFolder: FixtureFile[] = [];
		for (const file of entries(join(root, folder), "files")) {
			if (file.endsWith(".sse")) inFolder.push({ api: folder, name: file.slice(0, -4), path: join(root, folder, file) });
		}
		// Sorted by name without the extension: "a-b.sse" sorts before "a.sse", but "a" before "a-b".
		files.push(...inFolder.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)));
	}
	return files;
}

/** Sorted names of the folders or files in `path`; none when it cannot be read. */
function entries(path: string, kind: "folders" | "files"): string[] {
	try {
		return readdirSync(path, { withFileTypes: true })
			.filter((entry) => (kind === "folders" ? entry.isDirectory() : entry.isFile()))
			.map((entry) => entry.name)
			.sort();
	} catch {
		return [];
	}
}
