import { describe, expect, it } from "vitest";
import { CONTEXT_OVERFLOW_PATTERNS, isContextOverflow } from "../src/context-overflow.js";
import type { AssistantMessage, StopReason } from "../src/types.js";

function reply(stopReason: StopReason, extra: Partial<AssistantMessage> = {}): AssistantMessage {
	return {
		role: "assistant",
		content: [],
		api: "openai-completions",
		provider: "test",
		model: "test-model",
		usage: {
			input: 0,
			output: 0,
			cacheRead: 0,
			cacheWrite: 0,
			totalTokens: 0,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		},
		stopReason,
		timestamp: 0,
		...extra,
	};
}

function failed(errorMessage: string): AssistantMessage {
	return reply("error", { errorMessage });
}

function withUsage(stopReason: StopReason, input: number, cacheRead: number, cacheWrite: number): AssistantMessage {
	const message = reply(stopReason);
	message.usage = { ...message.usage, input, cacheRead, cacheWrite, output: 10, totalTokens: input + cacheRead + cacheWrite + 10 };
	return message;
}

// Error texts as the servers send them: bare messages, and whole JSON bodies after an HTTP status.
const OVERFLOW_ERRORS: [server: string, errorMessage: string][] = [
	[
		"OpenAI Chat Completions",
		`400 {"error":{"message":"This model's maximum context length is 128000 tokens. However, your messages resulted in 204308 tokens. Please reduce the length of the messages.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`,
	],
	[
		"OpenAI Responses (stream error event)",
		`{"type":"error","sequence_number":2,"error":{"type":"invalid_request_error","code":"context_length_exceeded","message":"Your input exceeds the context window of this model. Please adjust your input and try again.","param":"input"}}`,
	],
	["OpenAI Responses (message only)", "Your input exceeds the context window of this model. Please adjust your input and try again."],
	[
		"OpenAI gpt-5 input limit",
		"Input tokens exceed the configured limit of 272000 tokens. Your messages resulted in 300000 tokens. Please reduce the length of the messages.",
	],
	["Anthropic prompt too long", "prompt is too long: 213462 tokens > 200000 maximum"],
	[
		"Anthropic input plus max_tokens",
		`{"type":"error","error":{"type":"invalid_request_error","message":"input length and \`max_tokens\` exceed context limit: 174167 + 64000 > 200000, decrease input length or \`max_tokens\` and try again"}}`,
	],
	[
		"Anthropic 413",
		`413 {"type":"error","error":{"type":"request_too_large","message":"Request exceeds the maximum allowed number of bytes. The maximum request size is 32 MB for standard API requests."}}`,
	],
	["Anthropic 413 (message only)", "Request exceeds the maximum allowed number of bytes. The maximum request size is 32 MB for standard API requests."],
	[
		"Google Gemini",
		`{"error":{"code":400,"message":"The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}}`,
	],
	["xAI", "This model's maximum prompt length is 131072 but the request contains 136973 tokens."],
	["xAI (newer)", "Failed to start sampling: [input_too_large] Current message (1149677 tokens) exceeds budget (975424 tokens)"],
	[
		"Groq",
		`{"error":{"message":"Please reduce the length of the messages or completion.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`,
	],
	["Cerebras", "Please reduce the length of the messages or completion. Current length is 42328 while limit is 40000"],
	["Cerebras (limit only)", "Current length is 69553 while limit is 65536"],
	["Mistral", "Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length"],
	[
		"DeepSeek",
		`400 {"error":{"message":"This model's maximum context length is 131072 tokens. However, you requested 141403 tokens (133211 in the messages, 8192 in the completion). Please reduce the length of the messages or completion.","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}`,
	],
	[
		"OpenRouter",
		`{"error":{"message":"This endpoint's maximum context length is 131072 tokens. However, you requested about 141607 tokens (10535 of text input, 131072 in the output). Please reduce the length of either one, or use the \\"middle-out\\" transform to compress your prompt automatically.","code":400,"metadata":{"provider_name":"Chutes"}}}`,
	],
	["Together AI", "The input (140000 tokens) is longer than the model's context length (131072 tokens)."],
	[
		"llama.cpp server",
		`{"error":{"code":400,"message":"the request exceeds the available context size. try increasing the context size or enable context shift","type":"exceed_context_size_error","n_prompt_tokens":14429,"n_ctx":8192}}`,
	],
	["llama.cpp server (with counts)", "request (4390 tokens) exceeds the available context size (4096 tokens), try increasing it"],
	["llama.cpp server (older)", `{"error":{"code":500,"message":"Context size has been exceeded.","type":"server_error"}}`],
	["Ollama", "prompt too long; exceeded max context length by 4096 tokens"],
	["LM Studio", `{"error":"The number of tokens to keep from the initial prompt is greater than the context length (n_keep: 5453>= n_ctx: 4096)."}`],
	[
		"LM Studio (older)",
		"Trying to keep the first 10136 tokens when context the overflows. However, the model is loaded with context length of only 7866 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input.",
	],
	[
		"vLLM",
		`{"object":"error","message":"This model's maximum context length is 16384 tokens. However, you requested 19591 tokens (9591 in the messages, 10000 in the completion). Please reduce the length of the messages or completion.","type":"BadRequestError","param":null,"code":400}`,
	],
	[
		"vLLM (max_tokens too large)",
		"'max_tokens' or 'max_completion_tokens' is too large: 32000. This model's maximum context length is 32768 tokens and your request has 1000 input tokens (32000 > 32768 - 1000).",
	],
	["vLLM (prompt too long)", "The prompt (total length 25938) is too long to fit into the model (context length 4096)."],
	["vLLM (decoder prompt)", "The decoder prompt (length 5000) is longer than the maximum model length of 4096."],
];

// Failures that mention tokens or size but are not about the context window: retrying later or
// fixing the request helps, compacting the history does not.
const OTHER_ERRORS: [what: string, errorMessage: string][] = [
	[
		"OpenAI tokens-per-minute limit",
		`429 {"error":{"message":"Request too large for gpt-4o in organization org-abc on tokens per min (TPM): Limit 30000, Requested 50000. The input or output tokens must be reduced in order to run successfully.","type":"tokens","param":null,"code":"rate_limit_exceeded"}}`,
	],
	[
		"Groq tokens-per-minute limit",
		"Request too large for model `llama3-70b-8192` in organization `org_01` on tokens per minute (TPM): Limit 6000, Requested 12000, please reduce your message size and try again.",
	],
	["Anthropic rate limit", `{"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed the rate limit for your organization of 400,000 input tokens per minute."}}`],
	["Anthropic overloaded", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`],
	["Bedrock throttling", "Too many tokens, please wait before trying again."],
	["OpenAI invalid key", "401 Incorrect API key provided: sk-****. You can find your API key at https://platform.openai.com/account/api-keys."],
	["max_tokens above the model's output limit", "max_tokens: 100000 > 64000, which is the maximum allowed number of output tokens for claude-sonnet-4-20250514"],
	["Gemini quota", "Resource has been exhausted (e.g. check quota)."],
	["network", "fetch failed: ECONNRESET"],
	["idle timeout", "No data received for 120000 ms"],
];

describe("isContextOverflow: errors", () => {
	it.each(OVERFLOW_ERRORS)("recognises %s", (_server, errorMessage) => {
		expect(isContextOverflow(failed(errorMessage))).toBe(true);
	});

	it.each(OTHER_ERRORS)("does not mistake %s for an overflow", (_what, errorMessage) => {
		expect(isContextOverflow(failed(errorMessage))).toBe(false);
	});

	it("is false for an error without a message", () => {
		expect(isContextOverflow(reply("error"))).toBe(false);
	});

	it("looks at the error text only when the reply failed", () => {
		const text = "prompt is too long: 213462 tokens > 200000 maximum";
		expect(isContextOverflow(reply("aborted", { errorMessage: text }))).toBe(false);
		expect(isContextOverflow(reply("stop", { errorMessage: text }))).toBe(false);
	});

	it("gives the same answer on repeated calls (no stateful patterns)", () => {
		const message = failed("prompt too long; exceeded max context length by 10 tokens");
		for (let call = 0; call < 5; call++) expect(isContextOverflow(message)).toBe(true);
	});
});

describe("isContextOverflow: raw stop reason", () => {
	it.each(["stop", "length", "error"] as const)("counts model_context_window_exceeded as overflow with stopReason %s", (stopReason) => {
		expect(isContextOverflow(reply(stopReason, { rawStopReason: "model_context_window_exceeded" }))).toBe(true);
	});

	it("does not count other raw stop reasons", () => {
		expect(isContextOverflow(reply("length", { rawStopReason: "max_tokens" }))).toBe(false);
		expect(isContextOverflow(reply("stop", { rawStopReason: "end_turn" }))).toBe(false);
	});
});

describe("isContextOverflow: silent overflow", () => {
	it("is true when a successful reply used more input than the window", () => {
		expect(isContextOverflow(withUsage("stop", 130_000, 0, 0), 128_000)).toBe(true);
		expect(isContextOverflow(withUsage("toolUse", 130_000, 0, 0), 128_000)).toBe(true);
		expect(isContextOverflow(withUsage("length", 130_000, 0, 0), 128_000)).toBe(true);
	});

	it("counts cached input: input + cacheRead + cacheWrite", () => {
		expect(isContextOverflow(withUsage("stop", 1_000, 100_000, 27_000), 128_000)).toBe(false);
		expect(isContextOverflow(withUsage("stop", 1_000, 100_000, 27_001), 128_000)).toBe(true);
	});

	it("is false at exactly the window, and without a usable window", () => {
		const message = withUsage("stop", 128_000, 0, 0);
		expect(isContextOverflow(message, 128_000)).toBe(false);
		expect(isContextOverflow(withUsage("stop", 200_000, 0, 0))).toBe(false);
		expect(isContextOverflow(withUsage("stop", 200_000, 0, 0), 0)).toBe(false);
		expect(isContextOverflow(withUsage("stop", 200_000, 0, 0), Number.NaN)).toBe(false);
	});

	it("does not apply to failed, aborted or unfinished replies", () => {
		expect(isContextOverflow(withUsage("aborted", 200_000, 0, 0), 128_000)).toBe(false);
		expect(isContextOverflow(withUsage("pending", 200_000, 0, 0), 128_000)).toBe(false);
		const failure = withUsage("error", 200_000, 0, 0);
		failure.errorMessage = "fetch failed";
		expect(isContextOverflow(failure, 128_000)).toBe(false);
	});
});

describe("CONTEXT_OVERFLOW_PATTERNS", () => {
	it("is frozen, case-insensitive and free of the stateful g and y flags", () => {
		expect(Object.isFrozen(CONTEXT_OVERFLOW_PATTERNS)).toBe(true);
		for (const pattern of CONTEXT_OVERFLOW_PATTERNS) {
			expect(pattern.flags, String(pattern)).toContain("i");
			expect(pattern.global || pattern.sticky, String(pattern)).toBe(false);
		}
	});

	it("has a pattern for every recorded server error, and every pattern is exercised", () => {
		const unused = CONTEXT_OVERFLOW_PATTERNS.filter((pattern) => !OVERFLOW_ERRORS.some(([, text]) => pattern.test(text)));
		expect(unused.map(String)).toEqual(["/model_context_window_exceeded/i"]);
		expect(isContextOverflow(failed(`{"error":{"code":"model_context_window_exceeded"}}`))).toBe(true);
	});
});
