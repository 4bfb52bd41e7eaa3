import { describe, expect, it } from "vitest";
import {
	IMAGE_OMITTED_TEXT,
	MISSING_TOOL_RESULT_TEXT,
	sanitizeToolCallId,
	transformMessages,
	UNFINISHED_TOOL_CALL_TEXT,
} from "../src/transform-messages.js";
import { emptyUsage } from "../src/event-stream.js";
import type { Api, AssistantMessage, Message, Model } from "../src/types.js";

const apis: Api[] = ["openai-completions", "openai-responses", "anthropic-messages", "google-generative-ai"];

function model(api: Api, id = `${api}-model`, input: ("text" | "image")[] = ["text", "image"]): Model<Api> {
	return {
		id,
		name: id,
		api,
		provider: `${api}-provider`,
		baseUrl: "",
		reasoning: true,
		input,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 1000,
		maxTokens: 100,
	};
}

function assistant(from: Model<Api>, content: AssistantMessage["content"], stopReason: AssistantMessage["stopReason"] = "toolUse"): AssistantMessage {
	return { role: "assistant", content, api: from.api, provider: from.provider, model: from.id, usage: emptyUsage(), stopReason, timestamp: 2 };
}

function transcript(from: Model<Api>): Message[] {
	return [
		{ role: "user", content: [{ type: "text", text: "weather?" }, { type: "image", data: "AAAA", mimeType: "image/png" }], timestamp: 1 },
		assistant(from, [
			{ type: "thinking", thinking: "I should call the tool", thinkingSignature: "sig-think" },
			{ type: "thinking", thinking: "", thinkingSignature: "opaque", redacted: true },
			{ type: "text", text: "Checking.", textSignature: "msg_1" },
			{ type: "text", text: "" },
			{ type: "toolCall", id: "call_abc|fc_123", name: "weather", arguments: { city: "Paris" }, thoughtSignature: "ts" },
			{ type: "toolCall", id: "call_unanswered", name: "weather", arguments: { city: "Oslo" } },
		]),
		{ role: "toolResult", toolCallId: "call_abc|fc_123", toolName: "weather", content: [{ type: "text", text: "sunny" }], isError: false, timestamp: 3 },
		{ role: "user", content: "thanks", timestamp: 4 },
	];
}

describe("transformMessages across every pair of APIs", () => {
	for (const source of apis) {
		for (const target of apis) {
			const from = model(source, `${source}-older-model`);
			const to = model(target);
			it(`${source} → ${target}: thinking becomes text, signatures dropped, every call answered`, () => {
				const out = transformMessages(transcript(from), to, { normalizeToolCallId: (id) => sanitizeToolCallId(id) });
				const reply = out[1] as AssistantMessage;
				expect(reply.content).toEqual([
					{ type: "text", text: "I should call the tool" },
					{ type: "text", text: "Checking." },
					{ type: "toolCall", id: `${sanitizeToolCallId("call_abc|fc_123")}`, name: "weather", arguments: { city: "Paris" } },
					{ type: "toolCall", id: "call_unanswered", name: "weather", arguments: { city: "Oslo" } },
				]);
				expect(out.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "toolResult", "user"]);
				expect(out[2]).toMatchObject({ toolCallId: sanitizeToolCallId("call_abc|fc_123"), isError: false });
				expect(out[3]).toMatchObject({ toolCallId: "call_unanswered", isError: true, content: [{ type: "text", text: MISSING_TOOL_RESULT_TEXT }] });
				for (const message of out) {
					if (message.role === "assistant") {
						for (const block of message.content) {
							if (block.type === "toolCall") expect(block.id).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
						}
					}
				}
			});
		}
	}

	it("keeps thinking, redacted thinking and every signature for the same model", () => {
		const same = model("anthropic-messages");
		const reply = transformMessages(transcript(same), same)[1] as AssistantMessage;
		expect(reply.content).toEqual([
			{ type: "thinking", thinking: "I should call the tool", thinkingSignature: "sig-think" },
			{ type: "thinking", thinking: "", thinkingSignature: "opaque", redacted: true },
			{ type: "text", text: "Checking.", textSignature: "msg_1" },
			{ type: "toolCall", id: "call_abc|fc_123", name: "weather", arguments: { city: "Paris" }, thoughtSignature: "ts" },
			{ type: "toolCall", id: "call_unanswered", name: "weather", arguments: { city: "Oslo" } },
		]);
	});

	it("treats another model id of the same API as another model", () => {
		const reply = transformMessages(transcript(model("openai-responses", "gpt-a")), model("openai-responses", "gpt-b"))[1] as AssistantMessage;
		expect(reply.content[0]).toEqual({ type: "text", text: "I should call the tool" });
	});

	it("keeps the text of an aborted reply and closes its tool calls with an error result", () => {
		const from = model("openai-completions");
		const messages: Message[] = [
			{ role: "user", content: "go", timestamp: 1 },
			assistant(from, [
				{ type: "thinking", thinking: "half a thou" },
				{ type: "text", text: "Let me" },
				{ type: "toolCall", id: "call_1", name: "search", arguments: { q: "pa" } },
			], "aborted"),
			{ role: "user", content: "continue", timestamp: 5 },
		];
		const out = transformMessages(messages, from);
		expect(out.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "user"]);
		expect((out[1] as AssistantMessage).content).toEqual([
			{ type: "text", text: "Let me" },
			{ type: "toolCall", id: "call_1", name: "search", arguments: { q: "pa" } },
		]);
		expect(out[2]).toMatchObject({ toolCallId: "call_1", isError: true, content: [{ type: "text", text: UNFINISHED_TOOL_CALL_TEXT }] });
	});

	it("drops an errored reply that has no content left, and orphan tool results", () => {
		const from = model("anthropic-messages");
		const out = transformMessages(
			[
				{ role: "user", content: "hi", timestamp: 1 },
				assistant(from, [{ type: "thinking", thinking: "x" }], "error"),
				{ role: "toolResult", toolCallId: "ghost", toolName: "t", content: [], isError: false, timestamp: 2 },
				{ role: "user", content: "again", timestamp: 3 },
			],
			from,
		);
		expect(out.map((m) => m.role)).toEqual(["user", "user"]);
	});

	it("makes normalised ids unique when two ids collide, and results follow", () => {
		const from = model("openai-responses");
		const to = model("anthropic-messages");
		const out = transformMessages(
			[
				assistant(from, [
					{ type: "toolCall", id: "a|b", name: "t", arguments: {} },
					{ type: "toolCall", id: "a.b", name: "t", arguments: {} },
				]),
				{ role: "toolResult", toolCallId: "a.b", toolName: "t", content: [{ type: "text", text: "second" }], isError: false, timestamp: 2 },
				{ role: "toolResult", toolCallId: "a|b", toolName: "t", content: [{ type: "text", text: "first" }], isError: false, timestamp: 2 },
			],
			to,
			{ normalizeToolCallId: (id) => id.replace(/[^a-z]/g, "_") },
		);
		const calls = (out[0] as AssistantMessage).content.map((b) => (b.type === "toolCall" ? b.id : ""));
		expect(calls).toEqual(["a_b", "a_2"]);
		expect(out.slice(1).map((m) => m.role === "toolResult" && [m.toolCallId, (m.content[0] as { text: string }).text])).toEqual([
			["a_2", "second"],
			["a_b", "first"],
		]);
	});

	it("replaces images with a note for a text-only model", () => {
		const out = transformMessages(transcript(model("anthropic-messages")), model("openai-completions", "text-only", ["text"]));
		expect(out[0]).toMatchObject({ content: [{ type: "text", text: "weather?" }, { type: "text", text: IMAGE_OMITTED_TEXT }] });
	});

	it("does not mutate its input", () => {
		const messages = transcript(model("google-generative-ai"));
		const copy = structuredClone(messages);
		transformMessages(messages, model("anthropic-messages"), { normalizeToolCallId: (id) => sanitizeToolCallId(id) });
		expect(messages).toEqual(copy);
	});
});

describe("sanitizeToolCallId", () => {
	it("keeps valid ids and hashes changed ones so distinct ids stay distinct", () => {
		expect(sanitizeToolCallId("toolu_01ABC")).toBe("toolu_01ABC");
		const a = sanitizeToolCallId("call|1");
		const b = sanitizeToolCallId("call.1");
		expect(a).not.toBe(b);
		expect(a).toMatch(/^call_1_[a-z0-9]+$/);
		expect(sanitizeToolCallId("x".repeat(100))).toHaveLength(64);
		expect(sanitizeToolCallId("")).toMatch(/^[a-z0-9]+$/);
	});
});
