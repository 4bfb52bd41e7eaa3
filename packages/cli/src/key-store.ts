/**
 * API keys: from the environment first (the variables `@pi/ai` reads, e.g. `OPENAI_API_KEY`),
 * then from the keys file that `pi-ai keys set PROVIDER` writes (`<config>/keys.json`, mode 600).
 * A key is never printed, logged or written anywhere else.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { getEnvApiKey, getEnvApiKeyNames } from "@pi/ai";
import { configDir } from "./paths.js";
import { readJsonObject, writePrivateJson } from "./private-file.js";

/** Where a provider's key comes from, if anywhere. */
export type KeySource = "env" | "file" | undefined;

/** The provider name used for `--base-url` servers outside the catalog; its env variable is `PI_API_KEY`. */
export const COMPATIBLE_PROVIDER = "openai-compatible";

/** The keys file: `<config folder>/keys.json`. */
export function keysFilePath(): string {
	return join(configDir(), "keys.json");
}

/** The environment variables that may hold `provider`'s key (`PI_API_KEY` for `openai-compatible`). */
export function keyVariableNames(provider: string): readonly string[] {
	if (provider === COMPATIBLE_PROVIDER) return ["PI_API_KEY"];
	return getEnvApiKeyNames(provider) ?? [];
}

let warnedAboutMode = false;

/** The stored keys, by provider. Warns once (on stderr) when the keys file is readable by others. */
export function readStoredKeys(): Record<string, string> {
	const path = keysFilePath();
	warnIfShared(path);
	const stored = readJsonObject(path);
	const keys: Record<string, string> = {};
	for (const [provider, value] of Object.entries(stored)) if (typeof value === "string" && value !== "") keys[provider] = value;
	return keys;
}

/**
 * The key for `provider`: its environment variable, else the keys file, else `undefined`.
 *
 * @example
 * resolveApiKey("anthropic") // { key: "sk-ant-…", source: "env" }
 */
export function resolveApiKey(provider: string, stored: Record<string, string> = readStoredKeys()): { key: string | undefined; source: KeySource } {
	const fromEnv = provider === COMPATIBLE_PROVIDER ? process.env.PI_API_KEY || undefined : getEnvApiKey(provider);
	if (fromEnv) return { key: fromEnv, source: "env" };
	const fromFile = Object.hasOwn(stored, provider) ? stored[provider] : undefined;
	return fromFile ? { key: fromFile, source: "file" } : { key: undefined, source: undefined };
}

/** A keys file others can read (made by hand, copied, or restored from a backup) is still read, but not silently. */
function warnIfShared(path: string): void {
	if (warnedAboutMode || process.platform === "win32") return;
	let mode: number;
	try {
		mode = statSync(path).mode & 0o777;
	} catch {
		return; // no keys file
	}
	if ((mode & 0o077) === 0) return;
	warnedAboutMode = true;
	process.stderr.write(`pi-ai: warning: ${path} is readable by others (mode ${mode.toString(8)}); run chmod 600 ${path}\n`);
}

/** Stores `key` for `provider` in the keys file (mode 600). */
export function storeKey(provider: string, key: string): string {
	const path = keysFilePath();
	const stored = readStoredKeys();
	stored[provider] = key;
	writePrivateJson(path, stored);
	return path;
}

/** Removes `provider`'s stored key; returns whether there was one. */
export function removeKey(provider: string): boolean {
	const stored = readStoredKeys();
	if (!Object.hasOwn(stored, provider)) return false;
	delete stored[provider];
	writePrivateJson(keysFilePath(), stored);
	return true;
}
