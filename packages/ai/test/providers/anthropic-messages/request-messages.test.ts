import { describe, expect, it } from "vitest";
import type { Message, ToolResultMessage } from "../../../src/types.js";
import { useCapture } from "./capture.js";
import { anthropicModel, assistant, user } from "./helpers.js";

/** Golden request bodies for every kind of message. Caching is off here (see request-cache.test.ts). */
const { capture } = useCapture();
const noCache = { cacheRetention: "none" } as const;

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

function toolResult(toolCallId: string, content: ToolResultMessage["content"], isError = false): ToolResultMessage {
	return { role: "toolResult", toolCallId, toolName: "read", content, isError, timestamp: 0 };
}

describe("anthropic-messages request: messages", () => {
	it("sends the system prompt as a system block and the user text as a text block", async () => {
		const { body, request } = await capture({ systemPrompt: "Be brief.", messages: [user("Hello")] }, noCache);
		expect(request.method).toBe("POST");
		expect(request.path).toBe("/v1/messages");
		expect(body).toEqual({
			model: "claude-sonnet-4-20250514",
			max_tokens: 32000,
			stream: true,
			system: [{ type: "text", text: "Be brief." }],
			messages: [{ role: "user", content: [{ type: "text", text: "Hello" }] }],
		});
	});

	it("sends user images as base64 sources and drops empty text blocks", async () => {
		const { body } = await capture(
			{
				messages: [
					{
						role: "user",
						content: [
							{ type: "text", text: "What is this?" },
							{ type: "text", text: "   " },
							{ type: "image", data: PNG, mimeType: "image/png" },
						],
						timestamp: 0,
					},
				],
			},
			noCache,
		);
		expect(body.messages).toEqual([
			{
				role: "user",
				content: [
					{ type: "text", text: "What is this?" },
					{ type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
				],
			},
		]);
	});

	it("replays same-model thinking with its signature, redacted thinking as redacted_thinking, and tool calls with their results", async () => {
		const messages: Message[] = [
			user("Read both files"),
			assistant(
				[
					{ type: "thinking", thinking: "Two reads.", thinkingSignature: "sig-1" },
					{ type: "thinking", thinking: "", thinkingSignature: "opaque-data", redacted: true },
					{ type: "text", text: "Reading." },
					{ type: "toolCall", id: "toolu_01", name: "read", arguments: { path: "a.txt" } },
					{ type: "toolCall", id: "toolu_02", name: "read", arguments: { path: "b.png" } },
				],
				anthropicModel(),
				"toolUse",
			),
			toolResult("toolu_01", [{ type: "text", text: "alpha" }]),
			toolResult("toolu_02", [
				{ type: "text", text: "an image:" },
				{ type: "image", data: PNG, mimeType: "image/png" },
			]),
			user("Now compare them"),
		];
		const { body } = await capture({ messages }, noCache);
		expect(body.messages).toEqual([
			{ role: "user", content: [{ type: "text", text: "Read both files" }] },
			{
				role: "assistant",
				content: [
					{ type: "thinking", thinking: "Two reads.", signature: "sig-1" },
					{ type: "redacted_thinking", data: "opaque-data" },
					{ type: "text", text: "Reading." },
					{ type: "tool_use", id: "toolu_01", name: "read", input: { path: "a.txt" } },
					{ type: "tool_use", id: "toolu_02", name: "read", input: { path: "b.png" } },
				],
			},
			{
				role: "user",
				content: [
					{ type: "tool_result", tool_use_id: "toolu_01", content: [{ type: "text", text: "alpha" }] },
					{
						type: "tool_result",
						tool_use_id: "toolu_02",
						content: [
							{ type: "text", text: "an image:" },
							{ type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
						],
					},
					{ type: "text", text: "Now compare them" },
				],
			},
		]);
	});

	it("marks failed tool results with is_error and omits the content of an empty one", async () => {
		const messages: Message[] = [
			user("Go"),
			assistant(
				[
					{ type: "toolCall", id: "toolu_a", name: "read", arguments: {} },
					{ type: "toolCall", id: "toolu_b", name: "read", arguments: {} },
				],
				anthropicModel(),
				"toolUse",
			),
			toolResult("toolu_a", [{ type: "text", text: "ENOENT" }], true),
			toolResult("toolu_b", [{ type: "text", text: "" }]),
		];
		const { body } = await capture({ messages }, noCache);
		expect(body.messages).toEqual([
			{ role: "user", content: [{ type: "text", text: "Go" }] },
			{
				role: "assistant",
				content: [
					{ type: "tool_use", id: "toolu_a", name: "read", input: {} },
					{ type: "tool_use", id: "toolu_b", name: "read", input: {} },
				],
			},
			{
				role: "user",
				content: [
					{ type: "tool_result", tool_use_id: "toolu_a", content: [{ type: "text", text: "ENOENT" }], is_error: true },
					{ type: "tool_result", tool_use_id: "toolu_b" },
				],
			},
		]);
	});

	it("turns another model's thinking into text, drops its signatures and normalises its tool-call ids", async () => {
		const openai = { id: "gpt-5", api: "openai-responses", provider: "openai" };
		const messages: Message[] = [
			user("Hi"),
			assistant(
				[
					{ type: "thinking", thinking: "Reasoning from GPT.", thinkingSignature: "rs_123" },
					{ type: "thinking", thinking: "", thinkingSignature: "secret", redacted: true },
					{ type: "text", text: "Calling.", textSignature: "msg_1" },
					{ type: "toolCall", id: "call_abc|fc_123", name: "read", arguments: { path: "x" } },
				],
				openai,
				"toolUse",
			),
			{ ...toolResult("call_abc|fc_123", [{ type: "text", text: "ok" }]) },
		];
		const { body } = await capture({ messages }, noCache);
		expect(body.messages).toEqual([
			{ role: "user", content: [{ type: "text", text: "Hi" }] },
			{
				role: "assistant",
				content: [
					{ type: "text", text: "Reasoning from GPT." },
					{ type: "text", text: "Calling." },
					{ type: "tool_use", id: "call_abc_fc_123_15im48u", name: "read", input: { path: "x" } },
				],
			},
			{ role: "user", content: [{ type: "tool_result", tool_use_id: "call_abc_fc_123_15im48u", content: [{ type: "text", text: "ok" }] }] },
		]);
	});

	it("sends same-model thinking that has no signature as text, and never sends blank text", async () => {
		const messages: Message[] = [
			user("Hi"),
			assistant([
				{ type: "thinking", thinking: "Unsigned thought." },
				{ type: "text", text: " \n " },
				{ type: "text", text: "Answer." },
			]),
			user(""),
			user("Next"),
		];
		const { body } = await capture({ messages }, noCache);
		expect(body.messages).toEqual([
			{ role: "user", content: [{ type: "text", text: "Hi" }] },
			{ role: "assistant", content: [{ type: "text", text: "Unsigned thought." }, { type: "text", text: "Answer." }] },
			{ role: "user", content: [{ type: "text", text: "Next" }] },
		]);
	});

	it("closes the tool calls of an interrupted reply with an error result and keeps its text", async () => {
		const messages: Message[] = [
			user("Go"),
			assistant(
				[
					{ type: "thinking", thinking: "cut sho", thinkingSignature: "partial" },
					{ type: "text", text: "Starting" },
					{ type: "toolCall", id: "toolu_x", name: "read", arguments: { path: "a" } },
				],
				anthropicModel(),
				"aborted",
			),
			user("Try again"),
		];
		const { body } = await capture({ messages }, noCache);
		expect(body.messages).toEqual([
			{ role: "user", content: [{ type: "text", text: "Go" }] },
			{
				role: "assistant",
				content: [
					{ type: "text", text: "Starting" },
					{ type: "tool_use", id: "toolu_x", name: "read", input: { path: "a" } },
				],
			},
			{
				role: "user",
				content: [
					{
						type: "tool_result",
						tool_use_id: "toolu_x",
						content: [{ type: "text", text: "This tool call was not executed: the assistant's reply was interrupted." }],
						is_error: true,
					},
					{ type: "text", text: "Try again" },
				],
			},
		]);
	});

	it("replaces lone surrogates in text, which the API cannot parse", async () => {
		const { body } = await capture({ messages: [user("cut emoji \uD83D here")] }, noCache);
		expect(body.messages).toEqual([{ role: "user", content: [{ type: "text", text: "cut emoji \uFFFD here" }] }]);
	});

	it("replaces images with a note for a text-only model", async () => {
		const { body } = await capture(
			{ messages: [{ role: "user", content: [{ type: "text", text: "See" }, { type: "image", data: PNG, mimeType: "image/png" }], timestamp: 0 }] },
			noCache,
			{ input: ["text"] },
		);
		expect(body.messages).toEqual([
			{
				role: "user",
				content: [
					{ type: "text", text: "See" },
					{ type: "text", text: "(image omitted: this model does not accept images)" },
				],
			},
		]);
	});
});
