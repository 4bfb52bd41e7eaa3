/**
 * The user's settings, `<config folder>/config.json`: today only the default model
 * (`pi-ai models default PROVIDER/ID` writes it). `PI_AI_MODEL` in the environment wins over it.
 */
import { join } from "node:path";
import { configDir } from "./paths.js";
import { readJsonObject, writePrivateJson } from "./private-file.js";

/** What config.json may hold. */
export interface CliConfig {
	/** The model spec used when `-m` is not given, e.g. `anthropic/claude-haiku-4-5:low`. */
	model?: string;
}

/** `<config folder>/config.json`. */
export function configFilePath(): string {
	return join(configDir(), "config.json");
}

/** The settings; `{}` when there is no file. */
export function readConfig(): CliConfig {
	const raw = readJsonObject(configFilePath());
	return typeof raw.model === "string" && raw.model !== "" ? { model: raw.model } : {};
}

/** Replaces the default model. */
export function writeDefaultModel(spec: string): string {
	const path = configFilePath();
	writePrivateJson(path, { ...readJsonObject(path), model: spec });
	return path;
}

/** The default model spec: `PI_AI_MODEL`, else config.json, else `undefined` (pick by available keys). */
export function configuredModel(): { spec: string; from: string } | undefined {
	if (process.env.PI_AI_MODEL) return { spec: process.env.PI_AI_MODEL, from: "PI_AI_MODEL" };
	const model = readConfig().model;
	return model ? { spec: model, from: configFilePath() } : undefined;
}
