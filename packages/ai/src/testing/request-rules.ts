/**
 * The rules each wire API sets for a request body, as checkers that throw an Error naming the
 * broken rule, and a way to capture the body a provider's real request builder makes for a
 * context without sending it. Used by the cross-provider property tests here and by
 * `@pi/agent-core`'s compaction tests; usable for any transcript an app builds.
 *
 * @example
 * ```ts
 * for (const target of REQUEST_RULE_TARGETS) target.check(await captureRequestBody(target.model, context));
 * ```
 */
import { streamSimple } from "../stream.js";
import type { Api, Context, Model } from "../types.js";

/** A model of one API (and flavour with its own rules), and the checker of its request bodies. */
export interface RequestRuleTarget {
	name: string;
	/** Points at a closed local port: a captured request is never sent. */
	model: Model<Api>;
	/** Throws an Error naming the first rule `body` breaks. */
	check(body: Record<string, unknown>): void;
}

/** Nothing listens here: capturing aborts before a request would be sent anyway. */
const DEAD_ORIGIN = "http://127.0.0.1:9";

function model<TApi extends Api>(api: TApi, provider: string, id: string, baseUrl: string): Model<TApi> {
	return {
		id,
		name: `${id} (request rules)`,
		api,
		provider,
		baseUrl,
		reasoning: false,
		input: ["text", "image"],
		cost: { input: 1, output: 2, cacheRead: 0.1, cacheWrite: 1.25 },
		contextWindow: 128_000,
		maxTokens: 8_192,
	};
}

/** Anthropic, Chat Completions (OpenAI and Mistral ids), Responses, and Gemini 2.5 and 3. */
export const REQUEST_RULE_TARGETS: readonly RequestRuleTarget[] = [
	{ name: "anthropic", model: model("anthropic-messages", "anthropic", "claude-sonnet-4-5-20250929", DEAD_ORIGIN), check: (body) => checkAnthropic(body) },
	{ name: "openai-completions", model: model("openai-completions", "openai", "gpt-4o-mini", `${DEAD_ORIGIN}/v1`), check: (body) => checkCompletions(body, "openai") },
	{
		name: "openai-completions (mistral)",
		model: model("openai-completions", "mistral", "mistral-large-latest", `${DEAD_ORIGIN}/v1`),
		check: (body) => checkCompletions(body, "mistral"),
	},
	{ name: "openai-responses", model: model("openai-responses", "openai", "gpt-4o", `${DEAD_ORIGIN}/v1`), check: (body) => checkResponses(body) },
	{ name: "google (gemini 2.5)", model: model("google-generative-ai", "google", "gemini-2.5-flash", `${DEAD_ORIGIN}/v1beta`), check: (body) => checkGemini(body, false) },
	{ name: "google (gemini 3)", model: model("google-generative-ai", "google", "gemini-3-pro-preview", `${DEAD_ORIGIN}/v1beta`), check: (body) => checkGemini(body, true) },
];

/**
 * The request body `model`'s provider builds for `context`, captured in `onPayload`; the call
 * is then aborted, so nothing is sent. Rejects when no body was built (the provider failed
 * before building one: the error names why).
 */
export async function captureRequestBody(model: Model<Api>, context: Context, apiKey = "sk-request-rules-fake-key-0000"): Promise<Record<string, any>> {
	const controller = new AbortController();
	let body: Record<string, any> | undefined;
	const message = await streamSimple(model, context, {
		apiKey,
		signal: controller.signal,
		onPayload: (payload) => {
			body = payload as Record<string, any>;
			controller.abort(); // captured: nothing needs to be sent
			return undefined;
		},
	}).result();
	if (!body) throw new Error(`${model.api}: no request body was built (${message.stopReason}: ${message.errorMessage})`);
	return body;
}

type Json = Record<string, any>;

/** Throws an Error naming the broken rule, with a short excerpt of what broke it. */
function fail(rule: string, detail: unknown): never {
	throw new Error(`${rule}: ${JSON.stringify(detail).slice(0, 600)}`);
}

/** Anthropic Messages: alternating roles, a user first, every tool_use answered in the next message, signed thinking, id patterns, no empty text. */
export function checkAnthropic(body: Json): void {
	const messages = body.messages as Json[];
	if (messages.length === 0) fail("at least one message", messages);
	if (messages[0]?.role !== "user") fail("the first message is the user's", messages[0]);
	messages.forEach((message, index) => {
		if (index > 0 && messages[index - 1]?.role === message.role) fail("roles alternate", messages.slice(index - 1, index + 1));
		if (!Array.isArray(message.content) || message.content.length === 0) fail("content is a non-empty block list", message);
		for (const block of message.content as Json[]) {
			if (block.type === "text" && String(block.text).trim() === "") fail("no empty text block", block);
			if (block.type === "tool_use" && !/^[a-zA-Z0-9_-]{1,64}$/.test(block.id)) fail("tool_use id pattern", block.id);
			if (block.type === "tool_result" && !/^[a-zA-Z0-9_-]{1,64}$/.test(block.tool_use_id)) fail("tool_result id pattern", block.tool_use_id);
			if (block.type === "thinking" && !block.signature) fail("thinking is signed", block);
			if (block.type === "tool_result") {
				for (const inner of (block.content ?? []) as Json[]) if (inner.type === "text" && String(inner.text).trim() === "") fail("no empty text in a tool result", block);
			}
		}
		// Every tool_use is answered in the very next (user) message, and every result answers one.
		const calls = (message.content as Json[]).filter((block) => block.type === "tool_use").map((block) => block.id as string);
		if (calls.length > 0) {
			const next = messages[index + 1];
			const answered = new Set(((next?.content ?? []) as Json[]).filter((block) => block.type === "tool_result").map((block) => block.tool_use_id));
			for (const id of calls) if (!answered.has(id)) fail("every tool_use has a tool_result in the next message", { id, next });
		}
		const results = (message.content as Json[]).filter((block) => block.type === "tool_result");
		if (results.length > 0) {
			const previous = messages[index - 1];
			const asked = new Set(((previous?.content ?? []) as Json[]).filter((block) => block.type === "tool_use").map((block) => block.id));
			for (const result of results) if (!asked.has(result.tool_use_id)) fail("every tool_result answers a tool_use of the previous message", result);
			// The API wants the results first in their user message.
			const firstOther = (message.content as Json[]).findIndex((block) => block.type !== "tool_result");
			if (firstOther >= 0 && (message.content as Json[]).slice(firstOther).some((block) => block.type === "tool_result")) fail("tool results come first", message);
		}
	});
}

/** Chat Completions: every tool call answered by the tool messages right after it, id patterns (Mistral: 9 alphanumerics), no empty messages. */
export function checkCompletions(body: Json, flavour: "openai" | "mistral"): void {
	const messages = body.messages as Json[];
	const idPattern = flavour === "mistral" ? /^[a-zA-Z0-9]{9}$/ : /^[a-zA-Z0-9_-]{1,40}$/;
	messages.forEach((message, index) => {
		if (message.role === "user") {
			if (typeof message.content === "string" && message.content === "") fail("no empty user message", message);
			if (Array.isArray(message.content)) {
				if (message.content.length === 0) fail("no empty content list", message);
				for (const part of message.content as Json[]) if (part.type === "text" && part.text === "") fail("no empty text part", message);
			}
			if (flavour === "mistral" && messages[index - 1]?.role === "tool") fail("mistral: no user right after a tool message", messages.slice(index - 1, index + 1));
		}
		if (message.role === "assistant") {
			const calls = (message.tool_calls ?? []) as Json[];
			const hasText = typeof message.content === "string" ? message.content !== "" : Array.isArray(message.content) && message.content.length > 0;
			if (!hasText && calls.length === 0 && !message.reasoning_content && !message.reasoning) fail("no empty assistant message", message);
			// The tool messages that follow, up to the next non-tool message, answer exactly these calls.
			const answered: string[] = [];
			for (let next = index + 1; messages[next]?.role === "tool"; next++) answered.push(messages[next]?.tool_call_id);
			for (const call of calls) {
				if (!idPattern.test(call.id)) fail(`${flavour} tool call id pattern`, call.id);
				if (!answered.includes(call.id)) fail("every tool call is answered by the tool messages right after it", { call: call.id, answered });
			}
			if (new Set(calls.map((call) => call.id)).size !== calls.length) fail("tool call ids are unique", calls);
		}
		if (message.role === "tool") {
			let owner = index - 1;
			while (messages[owner]?.role === "tool") owner--;
			const calls = ((messages[owner]?.tool_calls ?? []) as Json[]).map((call) => call.id);
			if (!calls.includes(message.tool_call_id)) fail("every tool message answers a call of the assistant message before it", message);
			if (message.content === "" || message.content === undefined) fail("no empty tool message", message);
		}
	});
}

/** OpenAI Responses: every function_call has its output after it, unique call ids of the right pattern, no empty messages. */
export function checkResponses(body: Json): void {
	const input = body.input as Json[];
	const calls = new Map<string, number>();
	input.forEach((item, index) => {
		if (item.type === "function_call") {
			if (!/^[a-zA-Z0-9_-]{1,64}$/.test(item.call_id)) fail("call_id pattern", item.call_id);
			if (calls.has(item.call_id)) fail("call ids are unique", item.call_id);
			calls.set(item.call_id, index);
		}
		if (item.type === "function_call_output") {
			const at = calls.get(item.call_id);
			if (at === undefined || at > index) fail("every output follows its function_call", item);
		}
		if (item.role === "user" || item.role === "assistant") {
			const content = item.content;
			if (typeof content === "string" && content.trim() === "") fail("no empty message", item);
			if (Array.isArray(content)) {
				if (content.length === 0) fail("no empty content list", item);
				for (const part of content as Json[]) if ((part.type === "input_text" || part.type === "output_text") && part.text === "") fail("no empty text part", item);
			}
		}
	});
	const outputs = new Set(input.filter((item) => item.type === "function_call_output").map((item) => item.call_id));
	for (const id of calls.keys()) if (!outputs.has(id)) fail("every function_call has its output", id);
}

/** Gemini: alternating roles, a user first, calls answered in the next content (by name and id), non-empty parts; Gemini 3: signed calls in the current turn. */
export function checkGemini(body: Json, requiresSignatures: boolean): void {
	const contents = body.contents as Json[];
	if (contents.length === 0) fail("at least one content", contents);
	if (contents[0]?.role !== "user") fail("the first content is the user's", contents[0]);
	let turnStart = 0;
	contents.forEach((content, index) => {
		if (index > 0 && contents[index - 1]?.role === content.role) fail("roles alternate", contents.slice(index - 1, index + 1));
		if (!Array.isArray(content.parts) || content.parts.length === 0) fail("parts are non-empty", content);
		for (const part of content.parts as Json[]) {
			if ("text" in part && part.text === "" && !part.thoughtSignature) fail("no empty text part", part);
		}
		if (content.role === "user" && (content.parts as Json[]).some((part) => !part.functionResponse)) turnStart = index + 1;
		const calls = (content.parts as Json[]).filter((part) => part.functionCall);
		if (content.role === "model" && calls.length > 0) {
			const responses = ((contents[index + 1]?.parts ?? []) as Json[]).filter((part) => part.functionResponse);
			if (responses.length !== calls.length) fail("as many function responses in the next content as calls", { calls, next: contents[index + 1] });
			const names = responses.map((part) => part.functionResponse.name).sort();
			const called = calls.map((part) => part.functionCall.name).sort();
			if (JSON.stringify(names) !== JSON.stringify(called)) fail("function responses answer the calls by name", { names, called });
			for (const part of calls) {
				if (part.functionCall.id !== undefined && !responses.some((response) => response.functionResponse.id === part.functionCall.id)) {
					fail("a call sent with an id gets a response with that id", part);
				}
			}
		}
	});
	if (requiresSignatures) {
		for (const content of contents.slice(turnStart)) {
			const first = (content.parts as Json[]).find((part) => part.functionCall);
			if (content.role === "model" && first && !first.thoughtSignature) fail("gemini 3: the first call of each step of the current turn is signed", content);
		}
	}
}
