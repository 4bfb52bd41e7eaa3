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
import { REQUEST_RULE_TARGETS, type RequestRuleTarget } from "../../src/testing/request-rules.js";
import { ADAPTERS, FAKE_KEY } from "./harness/adapters.js";
import { expectNoUnhandledRejections } from "./harness/unhandled-rejections.js";

expectNoUnhandledRejections();

const PIXEL: ImageContent = { type: "image", mimeType: "image/png", data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==" };

// ---------------------------------------------------------------------------------------------
// Targets: a model per API (and per flavour with its own rules), and the rules of its wire format
// ---------------------------------------------------------------------------------------------

type Target = RequestRuleTarget;

/** The targets and their rules live in `@pi/ai/testing` (request-rules.ts), shared with the compaction tests. */
const TARGETS: readonly Target[] = REQUEST_RULE_TARGETS;

type Json = Record<string, any>;

const adapter = (api: string) => {
	const found = ADAPTERS.find((candidate) => candidate.api === api);
	if (!found) throw new Error(`no adapter for ${api}`);
	return found;
};

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
