/**
 * Access to the recorded `.sse` captures that this repository's own tests replay.
 *
 * For this repository's tests only: the captures are not shipped with the package. Applications
 * testing their own code pass their own bytes to `sseResponse()`.
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
 * The folder holding the captures: `$PI_FIXTURES_DIR` when set, else `<repo>/fixtures`, where
 * `<repo>` is the nearest folder above this file that holds `pnpm-workspace.yaml`.
 *
 * Throws when no workspace root is found and the variable is unset.
 */
export function fixturesDir(): string {
	const fromEnv = process.env.PI_FIXTURES_DIR;
	if (fromEnv) return resolve(fromEnv);
	if (cachedDir === undefined) cachedDir = join(findRepoRoot(), "fixtures");
	return cachedDir;
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

function findRepoRoot(): string {
	const start = dirname(fileURLToPath(import.meta.url));
	for (let dir = start; ; dir = dirname(dir)) {
		if (existsSync(join(dir, "pnpm-workspace.yaml"))) return dir;
		if (dirname(dir) === dir) break;
	}
	throw new Error(`No pnpm-workspace.yaml above ${start}; set PI_FIXTURES_DIR to the folder of the .sse captures.`);
}
