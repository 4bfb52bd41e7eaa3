import type { CacheRetention } from "./types.js";

/**
 * The prompt cache retention to use: the option when given, else `long` when the environment
 * variable `PI_CACHE_RETENTION` is `long` (read as `@mariozechner/pi-ai` reads it, so a
 * deployment configured for the reference keeps its setting), else `short`. Runtimes without
 * `process` (browsers) get `short`.
 *
 * @example
 * // PI_CACHE_RETENTION=long
 * resolveCacheRetention(undefined) // "long"
 * resolveCacheRetention("none") // "none"
 */
export function resolveCacheRetention(option: CacheRetention | undefined): CacheRetention {
	if (option) return option;
	if (typeof process !== "undefined" && process.env?.PI_CACHE_RETENTION === "long") return "long";
	return "short";
}
