import type { StreamOptions, ThinkingLevel } from "../../types.js";
import type { WireToolChoice } from "./wire-types.js";

/**
 * Options of `streamOpenAICompletions`: the common stream options plus what Chat Completions
 * servers read.
 *
 * @example
 * streamOpenAICompletions(model, context, { toolChoice: "required", reasoningEffort: "low", maxTokens: 2048 })
 */
export interface OpenAICompletionsOptions extends StreamOptions {
	/**
	 * `tool_choice`: `auto` (the server's default), `none`, `required`, or one named function.
	 * Sent as given; omitted when not set.
	 */
	toolChoice?: WireToolChoice;
	/**
	 * Reasoning effort for reasoning models, sent as `reasoning_effort` through the model's
	 * `compat.reasoningEffortMap` (e.g. `xhigh` becomes `high` where the server has no `xhigh`).
	 * Ignored for models without `reasoning` and servers without `supportsReasoningEffort`.
	 * Default: not sent (the server's default effort).
	 */
	reasoningEffort?: ThinkingLevel;
	/**
	 * The `strict` flag of every tool definition, on servers with `supportsStrictMode`. Default
	 * `false`: strict mode needs schemas with every property required and no extra properties.
	 */
	strictTools?: boolean;
}
