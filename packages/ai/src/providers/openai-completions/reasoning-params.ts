import type { Model } from "../../types.js";
import type { ResolvedOpenAICompletionsCompat } from "./detect-compat.js";
import type { OpenAICompletionsOptions } from "./options.js";
import type { WireRequest } from "./wire-types.js";

/**
 * The value sent for the requested level: the model's own `thinkingLevelMap` entry first (Groq
 * qwen3 takes only `default`), then the server's `reasoningEffortMap`.
 */
function effortValue(model: Model<"openai-completions">, level: NonNullable<OpenAICompletionsOptions["reasoningEffort"]>, compat: ResolvedOpenAICompletionsCompat): string {
	const mapped = model.thinkingLevelMap?.[level];
	return typeof mapped === "string" ? mapped : compat.reasoningEffortMap[level];
}

/**
 * Puts the reasoning request into `body`, in the format the server wants
 * (`compat.reasoningRequestFormat`). With no level asked for, the `openai` format sends nothing
 * unless the model maps `off` to a value (then that value), and the switch formats send "off".
 */
export function applyReasoning(
	body: WireRequest,
	model: Model<"openai-completions">,
	options: OpenAICompletionsOptions,
	compat: ResolvedOpenAICompletionsCompat,
): void {
	if (!model.reasoning) return;
	const level = options.reasoningEffort;
	switch (compat.reasoningRequestFormat) {
		case "zai":
		case "qwen":
			body.enable_thinking = level !== undefined;
			return;
		case "qwen-chat-template":
			body.chat_template_kwargs = { enable_thinking: level !== undefined, preserve_thinking: true };
			return;
		case "deepseek":
			body.thinking = { type: level !== undefined ? "enabled" : "disabled" };
			if (level !== undefined) body.reasoning_effort = effortValue(model, level, compat);
			return;
		case "openrouter": {
			const off = model.thinkingLevelMap?.off;
			if (level !== undefined) body.reasoning = { effort: effortValue(model, level, compat) };
			else if (off !== null) body.reasoning = { effort: off ?? "none" };
			return;
		}
		case "openai": {
			if (!compat.supportsReasoningEffort) return;
			const off = model.thinkingLevelMap?.off;
			if (level !== undefined) body.reasoning_effort = effortValue(model, level, compat);
			else if (typeof off === "string") body.reasoning_effort = off;
			return;
		}
	}
}

/** Routing preferences for OpenRouter and the Vercel AI Gateway, sent only to those servers. */
export function applyRouting(body: WireRequest, model: Model<"openai-completions">, compat: ResolvedOpenAICompletionsCompat): void {
	if (compat.openRouterRouting && model.baseUrl.includes("openrouter.ai")) body.provider = compat.openRouterRouting;
	if (compat.vercelGatewayRouting && model.baseUrl.includes("ai-gateway.vercel.sh")) {
		const { only, order } = compat.vercelGatewayRouting;
		if (only || order) body.providerOptions = { gateway: { ...(only ? { only } : {}), ...(order ? { order } : {}) } };
	}
}
