import type { ThinkingLevel } from "../../types.js";

/** Anthropic's `output_config.effort` values. `xhigh` needs Opus 4.7 or later; `max` Opus 4.6 or later. */
export type AnthropicEffort = "low" | "medium" | "high" | "xhigh" | "max";

/** A Claude model id read as family and version, e.g. `claude-opus-4-6` → opus 4.6. */
interface ClaudeVersion {
	family: string | undefined;
	/** major * 100 + minor: 406 for 4.6, 400 for 4, 307 for 3.7. */
	version: number | undefined;
}

/**
 * Reads family and version from an id in any of Anthropic's naming schemes, also behind a
 * provider prefix (`anthropic.`, `us.anthropic.`, `anthropic/`): `claude-3-7-sonnet-20250219`,
 * `claude-sonnet-4-20250514` (the date is not a minor version), `claude-opus-4-6`,
 * `claude-fable-5-1`, `claude-opus-4.6`.
 */
function parseClaudeId(modelId: string): ClaudeVersion {
	const id = modelId.toLowerCase();
	// `(?!\d)` keeps the 8-digit date of `claude-sonnet-4-20250514` from reading as a minor version.
	const match = /claude-(?:([a-z]+)-)?(\d{1,2})(?:[-.](\d{1,2})(?!\d))?(?!\d)/.exec(id);
	const family = match?.[1] ?? /claude-(?:\d+-)*([a-z]+)/.exec(id)?.[1];
	if (!match) return { family, version: undefined };
	return { family, version: Number(match[2]) * 100 + Number(match[3] ?? 0) };
}

/** Model lines that were adaptive-only from their first release, whatever their version. */
function isAdaptiveOnlyLine(family: string | undefined): boolean {
	return family === "mythos" || family === "fable";
}

/**
 * Whether the model takes `thinking: { type: "adaptive" }` with `output_config.effort`: Claude
 * Opus 4.6, Sonnet 4.6 and every later model (Opus 4.7+, the 5 series, Mythos, Fable). Budget
 * thinking is deprecated on 4.6 and rejected from Opus 4.7 on, so these get adaptive thinking.
 * Decided by the model id, as the API has no capability endpoint.
 *
 * @example
 * supportsAdaptiveThinking("claude-sonnet-4-6") // true
 * supportsAdaptiveThinking("claude-sonnet-4-5-20250929") // false
 */
export function supportsAdaptiveThinking(modelId: string): boolean {
	const { family, version } = parseClaudeId(modelId);
	if (isAdaptiveOnlyLine(family)) return true;
	return version !== undefined && version >= 406;
}

/**
 * Whether the model leaves thinking text out unless asked (`display: "omitted"` is its default):
 * Opus 4.7 and later, Mythos and Fable. For those this provider asks for `display: "summarized"`
 * so that thinking stays visible, as it is on older models.
 */
export function omitsThinkingByDefault(modelId: string): boolean {
	const { family, version } = parseClaudeId(modelId);
	if (isAdaptiveOnlyLine(family)) return true;
	return version !== undefined && version >= 407;
}

/**
 * The effort to request for a reasoning level on an adaptive model: `minimal` and `low` → `low`,
 * `medium` → `medium`, `high` → `high`, and `xhigh` → the highest effort the model accepts:
 * `xhigh` on Opus 4.7+ and the 5 series, `max` on Opus 4.6, Mythos and Fable, `high` elsewhere
 * (Sonnet 4.6 rejects both).
 *
 * @example
 * effortForLevel("claude-opus-4-6", "xhigh") // "max"
 */
export function effortForLevel(modelId: string, level: ThinkingLevel): AnthropicEffort {
	switch (level) {
		case "minimal":
		case "low":
			return "low";
		case "medium":
			return "medium";
		case "high":
			return "high";
		case "xhigh": {
			const { family, version } = parseClaudeId(modelId);
			if (version !== undefined && (version >= 500 || (family === "opus" && version >= 407))) return "xhigh";
			if (isAdaptiveOnlyLine(family) || (family === "opus" && version !== undefined && version >= 406)) return "max";
			return "high";
		}
	}
}

/**
 * Whether the model takes structured outputs (`output_config.format` with a JSON Schema): Claude
 * Opus 4.1 and later, Sonnet 4.5 and later, Haiku 4.5 and later, the 5 series, Mythos and Fable.
 * Older models get the schema as a forced tool instead (see `applyOutput`).
 *
 * @example
 * supportsStructuredOutputs("claude-sonnet-4-5-20250929") // true
 * supportsStructuredOutputs("claude-sonnet-4-20250514") // false
 */
export function supportsStructuredOutputs(modelId: string): boolean {
	const { family, version } = parseClaudeId(modelId);
	if (isAdaptiveOnlyLine(family)) return true;
	if (version === undefined) return false;
	if (version >= 500) return true;
	if (family === "opus") return version >= 401;
	return (family === "sonnet" || family === "haiku") && version >= 405;
}
