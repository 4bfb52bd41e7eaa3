/**
 * The user's settings, `<config folder>/config.json`: the default model (`pi-ai models default
 * PROVIDER/ID` writes it; `PI_MODEL`, then `PI_AI_MODEL`, in the environment win over it), and the
 * models the user added (`pi-ai models add ID --base-url URL`).
 */
import { join } from "node:path";
import { configDir } from "./paths.js";
import { readJsonObject, writePrivateJson } from "./private-file.js";

/** The wire APIs a model added with `pi-ai models add` may speak. */
export const ADDED_MODEL_APIS = ["openai-completions", "openai-responses", "anthropic-messages", "google-generative-ai"] as const;

/** One of {@link ADDED_MODEL_APIS}. */
export type AddedModelApi = (typeof ADDED_MODEL_APIS)[number];

/** A model outside the catalog, saved by `pi-ai models add`. */
export interface AddedModel {
	/** The id the server knows, also what `-m` takes. */
	id: string;
	baseUrl: string;
	api: AddedModelApi;
	/** Shown in listings; default the id. */
	name?: string;
}

/** What config.json may hold. */
export interface CliConfig {
	/** The model spec used when `-m` is not given, e.g. `anthropic/claude-haiku-4-5:low`. */
	model?: string;
	/** The models added with `pi-ai models add`, by id. */
	models: Record<string, AddedModel>;
}

/** `<config folder>/config.json`. */
export function configFilePath(): string {
	return join(configDir(), "config.json");
}

/** The settings; `{ models: {} }` when there is no file. Entries that are not well-formed are left out. */
export function readConfig(): CliConfig {
	const raw = readJsonObject(configFilePath());
	const models: Record<string, AddedModel> = {};
	const saved = raw.models;
	if (saved && typeof saved === "object" && !Array.isArray(saved)) {
		for (const [id, value] of Object.entries(saved as Record<string, unknown>)) {
			const model = parseAddedModel(id, value);
			if (model) models[id] = model;
		}
	}
	return typeof raw.model === "string" && raw.model !== "" ? { model: raw.model, models } : { models };
}

/** Replaces the default model. */
export function writeDefaultModel(spec: string): string {
	const path = configFilePath();
	writePrivateJson(path, { ...readJsonObject(path), model: spec });
	return path;
}

/** Saves (or replaces) an added model; returns the config file's path. */
export function writeAddedModel(model: AddedModel): string {
	const path = configFilePath();
	const raw = readJsonObject(path);
	const models = { ...readConfig().models, [model.id]: model };
	writePrivateJson(path, { ...raw, models });
	return path;
}

/** Forgets an added model; returns whether there was one. */
export function removeAddedModel(id: string): boolean {
	const path = configFilePath();
	const { models } = readConfig();
	if (!Object.hasOwn(models, id)) return false;
	delete models[id];
	writePrivateJson(path, { ...readJsonObject(path), models });
	return true;
}

/** The default model spec: `PI_MODEL`, `PI_AI_MODEL`, else config.json, else `undefined` (pick by available keys). */
export function configuredModel(): { spec: string; from: string } | undefined {
	for (const variable of ["PI_MODEL", "PI_AI_MODEL"]) {
		const value = process.env[variable];
		if (value) return { spec: value, from: variable };
	}
	const model = readConfig().model;
	return model ? { spec: model, from: configFilePath() } : undefined;
}

function parseAddedModel(id: string, value: unknown): AddedModel | undefined {
	if (!value || typeof value !== "object") return undefined;
	const { baseUrl, api, name } = value as Record<string, unknown>;
	if (typeof baseUrl !== "string" || !(ADDED_MODEL_APIS as readonly unknown[]).includes(api)) return undefined;
	return { id, baseUrl, api: api as AddedModelApi, ...(typeof name === "string" && name !== "" ? { name } : {}) };
}
