import type { Api, Model, ThinkingLevel } from "../../types.js";
import type { ResponsesReasoningEffort } from "./wire-types.js";

/**
 * Maps a unified thinking level to the `reasoning.effort` that `model` accepts.
 *
 * OpenAI's models do not all take every value, and reject the others with a 400:
 * - `o1`/`o3`/`o4-…` take `low`, `medium`, `high`;
 * - `gpt-5` (and its mini/nano/codex) takes `minimal` to `high`; `gpt-5-pro` only `high`;
 * - `gpt-5.1` takes `none` to `high` but not `minimal`; `xhigh` exists from `gpt-5.1-codex-max`
 *   and `gpt-5.2` on.
 * So for OpenAI-hosted models (`openai`, `azure`) `minimal` becomes `low` and `xhigh` becomes
 * `high` where the model lacks them. Other servers (DeepSeek, LM Studio, …) get the level as is.
 *
 * @example
 * reasoningEffortFor(getModel("openai", "o3")!, "minimal") // "low"
 * reasoningEffortFor(getModel("openai", "gpt-5")!, "minimal") // "minimal"
 */
export function reasoningEffortFor(model: Model<Api>, level: ThinkingLevel): ResponsesReasoningEffort {
	if (model.provider !== "openai" && model.provider !== "azure") return level;
	const id = model.id.toLowerCase();
	const oSeries = /^o\d/.test(id);
	const gpt5 = /^gpt-5(?:\.(\d+))?/.exec(id);
	if (!oSeries && !gpt5) return level;
	const minor = gpt5 ? Number(gpt5[1] ?? 0) : -1;
	if (gpt5 && minor === 0 && /^gpt-5-pro/.test(id)) return "high";
	if (level === "minimal") return gpt5 && minor === 0 ? "minimal" : "low";
	if (level === "xhigh") return minor >= 2 || id.includes("codex-max") ? "xhigh" : "high";
	return level;
}
