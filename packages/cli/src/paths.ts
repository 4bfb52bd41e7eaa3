/**
 * Where pi-ai keeps its files, following each OS's convention:
 *
 * | | configuration (keys, default model) | data (sessions) |
 * | --- | --- | --- |
 * | any OS, when set | `$XDG_CONFIG_HOME/pi-ai` | `$XDG_DATA_HOME/pi-ai` |
 * | Linux and others | `~/.config/pi-ai` | `~/.local/share/pi-ai` |
 * | macOS | `~/Library/Application Support/pi-ai` | `~/Library/Application Support/pi-ai` |
 * | Windows | `%APPDATA%\pi-ai` | `%LOCALAPPDATA%\pi-ai` |
 *
 * The XDG variables win on every OS, so a user (or a test) can move both folders anywhere.
 */
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";

const APP = "pi-ai";

/** What the folder rules read; defaults to this process. */
export interface PathContext {
	env: NodeJS.ProcessEnv;
	platform: NodeJS.Platform;
	home: string;
}

function context(partial?: Partial<PathContext>): PathContext {
	return { env: process.env, platform: process.platform, home: homedir(), ...partial };
}

/**
 * The configuration folder (keys file, config.json).
 *
 * @example
 * configDir({ env: { XDG_CONFIG_HOME: "/tmp/c" } }) // "/tmp/c/pi-ai"
 */
export function configDir(partial?: Partial<PathContext>): string {
	const { env, platform, home } = context(partial);
	// XDG says a relative path is invalid and must be ignored.
	if (env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME)) return join(env.XDG_CONFIG_HOME, APP);
	if (platform === "darwin") return join(home, "Library", "Application Support", APP);
	if (platform === "win32") return join(env.APPDATA ?? join(home, "AppData", "Roaming"), APP);
	return join(home, ".config", APP);
}

/**
 * The data folder (sessions/).
 *
 * @example
 * dataDir({ env: { XDG_DATA_HOME: "/tmp/d" } }) // "/tmp/d/pi-ai"
 */
export function dataDir(partial?: Partial<PathContext>): string {
	const { env, platform, home } = context(partial);
	if (env.XDG_DATA_HOME && isAbsolute(env.XDG_DATA_HOME)) return join(env.XDG_DATA_HOME, APP);
	if (platform === "darwin") return join(home, "Library", "Application Support", APP);
	if (platform === "win32") return join(env.LOCALAPPDATA ?? join(home, "AppData", "Local"), APP);
	return join(home, ".local", "share", APP);
}
