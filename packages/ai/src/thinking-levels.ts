/**
 * Which thinking levels a model takes, and the nearest one it takes to a requested level. Read
 * from `model.thinkingLevelMap` (a level mapped to `null` is unsupported; `xhigh` must be mapped
 * explicitly to count as supported), with the semantics and names of `@mariozechner/pi-ai`.
 */
import type { Api, Model, ModelThinkingLevel, ThinkingLevel } from "./types.js";

/** Every level from lowest to highest; the order `clampThinkingLevel` walks. */
const ORDER: readonly ModelThinkingLevel[] = ["off", "minimal", "low", "medium", "high", "xhigh"];

/**
 * The levels `model` accepts, lowest first. A model that cannot reason takes only `off`.
 *
 * @example
 * getSupportedThinkingLevels(getModel("groq", "qwen/qwen3-32b")) // ["off", "high"]
 */
export function getSupportedThinkingLevels<TApi extends Api>(model: Model<TApi>): ModelThinkingLevel[] {
	if (!model.reasoning) return ["off"];
	const map = model.thinkingLevelMap;
	return ORDER.filter((level) => {
		const mapped = map?.[level];
		if (mapped === null) return false;
		// `xhigh` is an opt-in level: only models that say what to send for it take it.
		return level !== "xhigh" || mapped !== undefined;
	});
}

/**
 * `level` when `model` takes it, else the nearest supported level above it, else the nearest
 * below it (so a request never silently loses reasoning it could keep), else `off`.
 *
 * @example
 * clampThinkingLevel(getModel("groq", "qwen/qwen3-32b"), "low") // "high"
 */
export function clampThinkingLevel<TApi extends Api>(model: Model<TApi>, level: ModelThinkingLevel): ModelThinkingLevel {
	const supported = getSupportedThinkingLevels(model);
	if (supported.includes(level)) return level;
	const from = ORDER.indexOf(level);
	if (from === -1) return supported[0] ?? "off";
	const above = ORDER.slice(from + 1).find((candidate) => supported.includes(candidate));
	if (above) return above;
	const below = ORDER.slice(0, from).reverse().find((candidate) => supported.includes(candidate));
	return below ?? "off";
}

/**
 * The level a provider should request for `requested`: clamped to the model's levels when the
 * model has a `thinkingLevelMap`, `undefined` for `off`. Without a map the request is unchanged
 * (providers then apply their own per-server mapping).
 */
export function effectiveThinkingLevel<TApi extends Api>(model: Model<TApi>, requested: ThinkingLevel): ThinkingLevel | undefined {
	if (!model.thinkingLevelMap) return requested;
	const clamped = clampThinkingLevel(model, requested);
	return clamped === "off" ? undefined : clamped;
}
