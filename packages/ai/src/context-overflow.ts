/**
 * Tells whether a reply failed, or quietly went wrong, because the conversation no longer fits the
 * model's context window, so that an agent can compact the history and retry instead of giving up.
 */
import type { AssistantMessage } from "./types.js";

/**
 * Error texts that servers send when the prompt does not fit the context window. Each pattern is
 * case-insensitive and stateless (no `g` flag), so `pattern.test(text)` is safe to call repeatedly.
 *
 * The list is frozen. To recognise another server, test your own pattern on `errorMessage` too:
 *
 * @example
 * const mine = /context budget blown/i;
 * const overflow = isContextOverflow(message) || (message.stopReason === "error" && mine.test(message.errorMessage ?? ""));
 */
export const CONTEXT_OVERFLOW_PATTERNS: readonly RegExp[] = Object.freeze([
	// OpenAI Chat Completions, DeepSeek, vLLM, OpenRouter, older Groq:
	// "This model's maximum context length is 128000 tokens. However, your messages resulted in …"
	// OpenRouter: "This endpoint's maximum context length is 200000 tokens. However, you requested about …"
	/maximum context length is \d[\d,]* tokens/i,
	// The error code of OpenAI and Groq, present when the raw error body is kept.
	/context_length_exceeded/i,
	// OpenAI Responses: "Your input exceeds the context window of this model. Please adjust your input and try again."
	/exceeds the context window/i,
	// OpenAI gpt-5 family: "Input tokens exceed the configured limit of 272000 tokens. Your messages resulted in …"
	/input tokens exceed the configured limit/i,
	// Anthropic: "prompt is too long: 213462 tokens > 200000 maximum"
	/prompt is too long/i,
	// Anthropic: "input length and `max_tokens` exceed context limit: 174167 + 64000 > 200000, …"
	/input length and `?max_tokens`? exceed context limit/i,
	// Anthropic 413 (the request body passed the size cap, e.g. too many images): type request_too_large,
	// "Request exceeds the maximum allowed number of bytes." Shrinking the history fixes it too.
	/request_too_large|request exceeds the maximum allowed number of bytes/i,
	// Google Gemini: "The input token count (1200293) exceeds the maximum number of tokens allowed (1048576)."
	/exceeds the maximum number of tokens allowed/i,
	// xAI: "This model's maximum prompt length is 131072 but the request contains 136973 tokens."
	/maximum prompt length is \d/i,
	// xAI (newer): "[input_too_large] Current message (1149677 tokens) exceeds budget (975424 tokens)"
	/input_too_large/i,
	// Groq, Cerebras, OpenAI-compatible servers:
	// "Please reduce the length of the messages or completion."
	/reduce the length of the messages/i,
	// Cerebras: "… Current length is 42328 while limit is 40000"
	/current length is \d+ while limit is \d+/i,
	// Mistral: "Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length"
	/too large for model with \d+ maximum context length/i,
	// Together AI: "The input (140000 tokens) is longer than the model's context length (131072 tokens)."
	/is longer than the model'?s context length/i,
	// llama.cpp server (type exceed_context_size_error):
	// "the request exceeds the available context size, try increasing it"
	/exceeds the available context size/i,
	// llama.cpp server (older) and LM Studio's MLX engine: "Context size has been exceeded."
	/context size has been exceeded/i,
	// Ollama: "prompt too long; exceeded max context length by 4096 tokens"
	/prompt too long; exceeded (?:max )?context length/i,
	// LM Studio: "The number of tokens to keep from the initial prompt is greater than the context length"
	/greater than the context length/i,
	// LM Studio (older): "Trying to keep the first 10136 tokens when context the overflows. However, the model
	// is loaded with context length of only 7866 tokens, which is not enough. …"
	/context length of only \d+ tokens/i,
	// vLLM: "The prompt (total length 25938) is too long to fit into the model (context length 4096)."
	/too long to fit into the model/i,
	// vLLM: "The decoder prompt (length 5000) is longer than the maximum model length of 4096."
	/longer than the maximum model length/i,
	// Anthropic stop_reason and z.ai finish_reason, when a provider puts the raw value in the text.
	/model_context_window_exceeded/i,
]);

/**
 * Whether `message` shows that the context window was exceeded. True when any of these holds:
 *
 * 1. `stopReason` is `"error"` and `errorMessage` matches one of {@link CONTEXT_OVERFLOW_PATTERNS}.
 * 2. `rawStopReason` is `"model_context_window_exceeded"` (Anthropic and z.ai stop this way when
 *    the window fills up during the reply).
 * 3. Silent overflow: `contextWindow` is given (> 0), the reply succeeded (`stop`, `length` or
 *    `toolUse`), and `usage.input + usage.cacheRead + usage.cacheWrite` is above it. Some servers
 *    (z.ai, some OpenAI-compatible proxies) accept an oversized prompt instead of rejecting it.
 *
 * Not detected: servers that truncate the prompt silently and report the truncated size (Ollama by
 * default), and failures with no text at all (Cerebras sometimes answers 400/413 with no body).
 * Rate limits that mention tokens ("Request too large … tokens per min (TPM)") are not overflows
 * and give `false`: waiting helps, compacting does not.
 *
 * @example
 * const reply = await complete(model, context);
 * if (isContextOverflow(reply, model.contextWindow)) {
 *   context.messages = await compact(context.messages);
 * }
 */
export function isContextOverflow(message: AssistantMessage, contextWindow?: number): boolean {
	if (message.rawStopReason === "model_context_window_exceeded") return true;

	if (message.stopReason === "error") {
		const text = message.errorMessage;
		if (!text) return false;
		return CONTEXT_OVERFLOW_PATTERNS.some((pattern) => pattern.test(text));
	}

	if (contextWindow === undefined || !(contextWindow > 0)) return false;
	const succeeded = message.stopReason === "stop" || message.stopReason === "length" || message.stopReason === "toolUse";
	if (!succeeded) return false;
	const { input, cacheRead, cacheWrite } = message.usage;
	return input + cacheRead + cacheWrite > contextWindow;
}

/**
 * The patterns {@link isContextOverflow} matches error messages against, as a fresh array (the
 * reference's name for {@link CONTEXT_OVERFLOW_PATTERNS}, e.g. to test a custom provider's message).
 *
 * @example
 * getOverflowPatterns().some((p) => p.test("prompt is too long: 210000 tokens > 200000 maximum")) // true
 */
export function getOverflowPatterns(): RegExp[] {
	return [...CONTEXT_OVERFLOW_PATTERNS];
}
