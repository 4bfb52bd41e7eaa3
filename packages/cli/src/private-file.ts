/**
 * Reading and writing small JSON files that only the user may read: the keys file and the
 * configuration. Writes go to a temporary file created with mode 600 in the same folder, then
 * rename over the target, so a crash never leaves a half-written file and the content is never
 * readable by others, not even for a moment (the umask cannot widen an explicit mode 600; the
 * folder itself is created with mode 700).
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { CliError } from "./cli-error.js";

/** The JSON object in `path`, or `{}` when the file does not exist. Other failures are `CliError`s. */
export function readJsonObject(path: string): Record<string, unknown> {
	let text: string;
	try {
		text = readFileSync(path, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
		throw new CliError(`cannot read ${path}: ${(error as Error).message}`);
	}
	try {
		const value: unknown = JSON.parse(text);
		if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
	} catch {
		// reported below
	}
	throw new CliError(`${path} is not a JSON object; fix or delete it`);
}

/** Writes `value` as JSON to `path` with mode 600 (folder 700), atomically. */
export function writePrivateJson(path: string, value: unknown): void {
	mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
	const temporary = `${path}.${process.pid}.tmp`;
	writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
	// A file left by an older version (or created by hand) may have wider permissions: the renamed
	// file carries the temporary's mode, but chmod once more so the rule holds even on odd umasks.
	chmodSync(temporary, 0o600);
	renameSync(temporary, path);
}
