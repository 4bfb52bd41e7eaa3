/**
 * Property: any transcript, from any mix of models and APIs, converts into a request that each
 * target API accepts. Random transcripts (thinking with and without signatures, redacted
 * thinking, tool calls with and without results, odd tool-call ids, images, aborted and failed
 * replies, messages of several APIs) go through each provider's real request builder; the body
 * is captured in `onPayload` (the signal is aborted there, so nothing is sent) and checked
 * against the target's rules: every tool call has its result, ids match the target's pattern,
 * roles alternate where required, and no text block is empty.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { transformMessages } from "../../src/transform-messages.js";
import type { AssistantMessage, Context, ImageContent, Message, Model, TextContent, ToolCall, UserMessage } from "../../src/types.js";
import { ADAPTERS, FAKE_KEY } from "./harness/adapters.js";
import { expectNoUnhandledRejections } from "./harness/unhandled-rejections.js";

expectNoUnhandledRejections();

const PIXEL: ImageContent = { type: "image", mimeType: "image/png", data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==" };
const DEAD_ORIGIN = "http://127.0.0.1:9";

// ---------------------------------------------------------------------------------------------
// Targets: a model per API (and per flavour with its own rules), and the rules of its wire format
// ---------------------------------------------------------------------------------------------

interface Target {
	name: string;
	model: Model;
	check(body: Record<string, unknown>): void;
}

const adapter = (api: string) => {
	const found = ADAPTERS.find((candidate) => candidate.api === api);
	if (!found) throw new Error(`no adapter for ${api}`);
	return found;
};

const TARGETS: Target[] = [
	{ name: "anthropic", model: adapter("anthropic-messages").model(DEAD_ORIGIN), check: checkAnthropic },
	{ name: "openai-completions", model: adapter("openai-completions").model(DEAD_ORIGIN), check: (body) => checkCompletions(body, "openai") },
	{
		name: "openai-completions (mistral)",
		model: { ...adapter("openai-completions").model(DEAD_ORIGIN), provider: "mistral", id: "mistral-large-latest" },
		check: (body) => checkCompletions(body, "mistral"),
	},
	{ name: "openai-responses", model: adapter("openai-responses").model(DEAD_ORIGIN), check: checkResponses },
	{ name: "google (gemini 2.5)", model: adapter("google-generative-ai").model(DEAD_ORIGIN), check: (body) => checkGemini(body, false) },
	{
		name: "google (gemini 3)",
		model: { ...adapter("google-generative-ai").model(DEAD_ORIGIN), id: "gemini-3-pro-preview" },
		check: (body) => checkGemini(body, true),
	},
];

type Json = Record<string, any>;

function fail(rule: string, detail: unknown): never {
	throw new Error(`${rule}: ${JSON.stringify(detail).slice(0, 600)}`);
}

function checkAnthropic(body: Json): void {
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

function checkCompletions(body: Json, flavour: "openai" | "mistral"): void {
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

function checkResponses(body: Json): void {
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

function checkGemini(body: Json, requiresSignatures: boolean): void {
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
			expect(names).toEqual(calls.map((part) => part.functionCall.name).sort());
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

// ---------------------------------------------------------------------------------------------
// Transcripts
// ---------------------------------------------------------------------------------------------

/** Where assistant messages come from: every API, and the targets themselves (signatures replay). */
const SOURCES: Pick<Model, "api" | "provider" | "id">[] = [
	...TARGETS.map((target) => ({ api: target.model.api, provider: target.model.provider, id: target.model.id })),
	{ api: "openai-completions", provider: "groq", id: "openai/gpt-oss-120b" },
	{ api: "faux", provider: "faux", id: "faux-1" },
];

const toolCallId = fc.oneof(
	fc.stringMatching(/^call_[A-Za-z0-9]{24}$/),
	fc.stringMatching(/^toolu_[A-Za-z0-9]{24}$/),
	fc.tuple(fc.stringMatching(/^call_[A-Za-z0-9]{8}$/), fc.stringMatching(/^fc_[a-f0-9]{40}$/)).map(([call, item]) => `${call}|${item}`),
	fc.stringMatching(/^[a-z_]{1,8}_\d_[0-9a-z]{8}$/), // ids generated for Gemini calls without one
	fc.stringMatching(/^[A-Za-z0-9]{9}$/), // Mistral
	fc.string({ minLength: 1, maxLength: 90 }), // anything a proxy might send: dots, slashes, spaces, unicode
	fc.constant("call_1"), // reused ids across turns
);
const toolName = fc.constantFrom("read_file", "bash", "get_weather", "search");
const text = fc.oneof({ weight: 5, arbitrary: fc.lorem({ maxCount: 6 }) }, { weight: 1, arbitrary: fc.constantFrom("", " ", "\n\t") }, { weight: 1, arbitrary: fc.string() });
const signature = fc.oneof(fc.constant(undefined), fc.base64String({ minLength: 4, maxLength: 40 }), fc.constant('{"type":"reasoning","id":"rs_1","summary":[],"encrypted_content":"gAAAA"}'));

const block: fc.Arbitrary<AssistantMessage["content"][number]> = fc.oneof(
	fc.record({ type: fc.constant("text" as const), text, textSignature: fc.option(fc.constant('{"v":1,"id":"msg_1"}'), { nil: undefined }) }),
	fc.record({ type: fc.constant("thinking" as const), thinking: text, thinkingSignature: signature }),
	fc.record({ type: fc.constant("thinking" as const), thinking: fc.constant(""), thinkingSignature: fc.base64String({ minLength: 8, maxLength: 40 }), redacted: fc.constant(true) }),
	fc.record({
		type: fc.constant("toolCall" as const),
		id: toolCallId,
		name: toolName,
		arguments: fc.dictionary(fc.constantFrom("path", "command", "city", "__proto__", "constructor"), fc.jsonValue({ maxDepth: 2 })),
		thoughtSignature: fc.option(fc.base64String({ minLength: 4, maxLength: 20 }), { nil: undefined }),
	}),
);

const assistant: fc.Arbitrary<AssistantMessage> = fc
	.record({
		source: fc.constantFrom(...SOURCES),
		content: fc.array(block, { maxLength: 4 }),
		stopReason: fc.constantFrom("stop", "toolUse", "length", "error", "aborted") as fc.Arbitrary<AssistantMessage["stopReason"]>,
	})
	.map(({ source, content, stopReason }) => ({
		role: "assistant",
		content: content.map(withoutUndefined),
		api: source.api,
		provider: source.provider,
		model: source.id,
		usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
		stopReason,
		...(stopReason === "error" || stopReason === "aborted" ? { errorMessage: "interrupted" } : {}),
		timestamp: 1,
	}));

/** What a user says: text, or text parts (some blank) and images. */
const userContent: fc.Arbitrary<UserMessage["content"]> = fc.oneof(
	fc.lorem({ maxCount: 5 }).map((words) => `${words}.`),
	fc.constantFrom("", "  \n"),
	fc.array(fc.oneof(fc.record({ type: fc.constant("text" as const), text: fc.oneof(fc.lorem({ maxCount: 4 }), fc.constantFrom("", " ")) }), fc.constant(PIXEL)), {
		minLength: 1,
		maxLength: 3,
	}) as fc.Arbitrary<(TextContent | ImageContent)[]>,
);

/** The opening message says something: a transcript whose first words are blank has nothing to send. */
const firstUserContent: fc.Arbitrary<UserMessage["content"]> = fc.tuple(fc.lorem({ maxCount: 5 }), userContent).map(([words, rest]) =>
	typeof rest === "string" ? `${words}.${rest}` : [{ type: "text", text: `${words}.` }, ...rest],
);

type Step = { kind: "user"; content: UserMessage["content"] } | { kind: "assistant"; message: AssistantMessage; answer: boolean[]; shuffle: boolean; orphan: boolean };

const step: fc.Arbitrary<Step> = fc.oneof(
	{ weight: 1, arbitrary: userContent.map((content) => ({ kind: "user" as const, content })) },
	{
		weight: 3,
		arbitrary: fc.record({ kind: fc.constant("assistant" as const), message: assistant, answer: fc.array(fc.boolean(), { maxLength: 4 }), shuffle: fc.boolean(), orphan: fc.boolean() }),
	},
);

/** A transcript: the user speaks first, then turns in any order, tool results for some calls only. */
const transcript: fc.Arbitrary<Message[]> = fc.tuple(firstUserContent, fc.array(step, { maxLength: 7 })).map(([first, steps]) => {
	const messages: Message[] = [{ role: "user", content: first, timestamp: 0 }];
	for (const item of steps) {
		if (item.kind === "user") {
			messages.push({ role: "user", content: item.content, timestamp: 2 });
			continue;
		}
		messages.push(item.message);
		const calls = item.message.content.filter((part): part is ToolCall => part.type === "toolCall");
		const answered = calls.filter((_, index) => item.answer[index] ?? true);
		if (item.shuffle) answered.reverse();
		for (const call of answered) {
			messages.push({
				role: "toolResult",
				toolCallId: call.id,
				toolName: call.name,
				content: call.name === "read_file" ? [{ type: "text", text: "contents" }, PIXEL] : [{ type: "text", text: "ok" }],
				isError: call.name === "bash",
				timestamp: 3,
			});
		}
		if (item.orphan) messages.push({ role: "toolResult", toolCallId: "orphan_call", toolName: "bash", content: [{ type: "text", text: "late" }], isError: false, timestamp: 4 });
	}
	return messages;
});

function withoutUndefined<T extends object>(value: T): T {
	return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}

// ---------------------------------------------------------------------------------------------
// Capturing request bodies through the real providers, without sending them
// ---------------------------------------------------------------------------------------------

async function captureBody(target: Target, context: Context): Promise<Json> {
	const provider = adapter(target.model.api);
	const controller = new AbortController();
	let body: Json | undefined;
	const message = await provider
		.stream(target.model, context, {
			apiKey: FAKE_KEY,
			signal: controller.signal,
			onPayload: (payload) => {
				body = payload as Json;
				controller.abort(); // captured: nothing needs to be sent
				return undefined;
			},
		})
		.result();
	if (!body) throw new Error(`${target.name}: no body was built (${message.stopReason}: ${message.errorMessage})`);
	expect(message.stopReason).toBe("aborted");
	return body;
}

describe("cross-provider handoff: any transcript becomes a valid request for every API", () => {
	it("every tool result stays with its own call, also when a message reuses one id", () => {
		fc.assert(
			fc.property(transcript, fc.constantFrom(...TARGETS), (messages, target) => {
				const calls = new Map<string, string>();
				for (const message of transformMessages(messages, target.model, { normalizeToolCallId: (id) => id.slice(0, 12) })) {
					if (message.role === "assistant") for (const part of message.content) if (part.type === "toolCall") calls.set(part.id, part.name);
					if (message.role === "toolResult") expect(calls.get(message.toolCallId), message.toolCallId).toBe(message.toolName);
				}
			}),
			{ numRuns: 1000 },
		);
	});

	for (const target of TARGETS) {
		it(`${target.name}`, async () => {
			await fc.assert(
				fc.asyncProperty(transcript, async (messages) => {
					const before = JSON.stringify(messages);
					const body = await captureBody(target, { systemPrompt: "Be brief.", messages });
					target.check(body);
					// Converting never mutates the caller's transcript.
					expect(JSON.stringify(messages)).toBe(before);
				}),
				{ numRuns: 300 },
			);
		});
	}
});
