/**
 * Per-model thinking levels of catalog models, by `provider/id`, where a server accepts only some
 * levels or wants its own value for one. Kept apart from the generated catalog so that
 * regenerating it keeps them; `getModel` / `getModels` attach them as `thinkingLevelMap`.
 *
 * Each entry was checked against the reference's catalog (`@mariozechner/pi-ai` 0.73.1) and
 * against what our providers send; docs/migration.md lists them and the ones left out.
 */
import type { ThinkingLevelMap } from "./types.js";

/** OpenAI gpt-5 models always reason: there is no "off". */
const ALWAYS_REASONS: ThinkingLevelMap = { off: null };
/** gpt-5.2 and later also take `xhigh`. */
const ALWAYS_REASONS_XHIGH: ThinkingLevelMap = { off: null, xhigh: "xhigh" };
/** Gemini 3 Pro takes only `low` and `high` thinking levels, and cannot turn thinking off. */
const GEMINI_3_PRO: ThinkingLevelMap = { off: null, minimal: null, low: "LOW", medium: null, high: "HIGH" };

export const MODEL_THINKING_LEVELS: Readonly<Record<string, ThinkingLevelMap>> = {
	// Groq answers 400 unless reasoning_effort is "none" or "default" for qwen3.
	"groq/qwen/qwen3-32b": { minimal: null, low: null, medium: null, high: "default" },
	"anthropic/claude-opus-4-6": { xhigh: "max" },
	"anthropic/claude-opus-4-7": { xhigh: "xhigh" },
	"google/gemini-3.1-pro-preview": GEMINI_3_PRO,
	"openai/gpt-5": ALWAYS_REASONS,
	"openai/gpt-5-chat-latest": ALWAYS_REASONS,
	"openai/gpt-5-mini": ALWAYS_REASONS,
	"openai/gpt-5-nano": ALWAYS_REASONS,
	"openai/gpt-5-pro": ALWAYS_REASONS,
	"openai/gpt-5.1": ALWAYS_REASONS,
	"openai/gpt-5.2": ALWAYS_REASONS_XHIGH,
	"openai/gpt-5.2-pro": ALWAYS_REASONS_XHIGH,
	"openai/gpt-5.3-codex": ALWAYS_REASONS_XHIGH,
	"openai/gpt-5.4": ALWAYS_REASONS_XHIGH,
	"openai/gpt-5.4-mini": ALWAYS_REASONS_XHIGH,
	"openai/gpt-5.4-nano": ALWAYS_REASONS_XHIGH,
	"openai/gpt-5.4-pro": ALWAYS_REASONS_XHIGH,
	"openai/gpt-5.5": ALWAYS_REASONS_XHIGH,
	"openai/gpt-5.5-pro": ALWAYS_REASONS_XHIGH,
};
