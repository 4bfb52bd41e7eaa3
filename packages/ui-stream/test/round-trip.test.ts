import type { AgentMessage } from "@pi/agent-core";
import type { AssistantMessage, Usage } from "@pi/ai";
import { fromUIMessages, toUIMessages } from "@pi/ui-stream";
import { describe, expect, it } from "vitest";
import { expectValidUIMessages } from "./helpers/ai-schemas.js";

function usage(input: number, output: number): Usage {
	return { input, output, cacheRead: 1, cacheWrite: 0, totalTokens: input + output + 1, cost: { input: input / 1e6, output: output / 1e6, cacheRead: 0, cacheWrite: 0, total: (input + output) / 1e6 } };
}

function assistant(content: AssistantMessage["content"], extra: Partial<AssistantMessage>): AssistantMessage {
	return { role: "assistant", content, api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5", usage: usage(10, 20), stopReason: "stop", timestamp: 2, ...extra };
}

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

const transcript: AgentMessage[] = [
	{ role: "compactionSummary", summary: "## Goal\nClean up.", tokensBefore: 12_000, timestamp: 1 },
	{ role: "user", content: "Delete the temp files and add 2 and 3.", timestamp: 1 },
	assistant(
		[
			{ type: "thinking", thinking: "Two tools.", thinkingSignature: "sig-abc" },
			{ type: "thinking", thinking: "", thinkingSignature: "encrypted", redacted: true },
			{ type: "text", text: "On it.", textSignature: "msg_1" },
			{ type: "toolCall", id: "call_1", name: "add", arguments: { a: 2, b: 3 }, thoughtSignature: "ts-1" },
			{ type: "toolCall", id: "call_2", name: "delete_file", arguments: { path: "tmp/a.log" } },
			{ type: "toolCall", id: "call_3", name: "screenshot", arguments: {} },
			{ type: "toolCall", id: "call_4", name: "lookup", arguments: { word: "zyx" } },
		],
		{ stopReason: "toolUse", responseId: "resp_1", rawStopReason: "tool_use", usage: usage(100, 50), timestamp: 3 },
	),
	{ role: "toolResult", toolCallId: "call_1", toolName: "add", content: [{ type: "text", text: "5" }], details: { sum: 5 }, isError: false, timestamp: 4 },
	{ role: "toolResult", toolCallId: "call_2", toolName: "delete_file", content: [{ type: "text", text: 'Tool call "delete_file" was rejected (not now).' }], details: { rejected: true, reason: "not now" }, isError: true, timestamp: 4 },
	{ role: "toolResult", toolCallId: "call_3", toolName: "screenshot", content: [{ type: "text", text: "Here:" }, { type: "image", data: PNG, mimeType: "image/png" }], isError: false, timestamp: 4 },
	{ role: "toolResult", toolCallId: "call_4", toolName: "lookup", content: [{ type: "text", text: 'no entry for "zyx"' }], details: {}, isError: true, timestamp: 4 },
	assistant([{ type: "text", text: "5, and I left tmp/a.log." }], { provider: "openai", api: "openai-responses", model: "gpt-5", usage: usage(300, 10), timestamp: 5 }),
	{ role: "user", content: [{ type: "text", text: "Look:" }, { type: "image", data: PNG, mimeType: "image/png" }], timestamp: 6 },
	assistant([], { stopReason: "error", errorMessage: "429 rate limited", usage: usage(0, 0), timestamp: 7 }),
];

describe("fromUIMessages(toUIMessages(messages))", () => {
	it("gives back every message and block, the signatures and the tool pairing", async () => {
		const ui = toUIMessages(transcript);
		await expectValidUIMessages(ui);
		expect(ui.map((message) => message.role)).toEqual(["system", "user", "assistant", "user", "assistant"]);
		expect(fromUIMessages(ui)).toEqual(transcript);
	});

	it("shows each call's state from its result, and each step's model and usage in metadata.pi", () => {
		const reply = toUIMessages(transcript)[2];
		expect(reply?.parts.map((part) => ("state" in part ? `${part.type}:${part.state}` : part.type))).toEqual([
			"step-start",
			"reasoning:done",
			"reasoning:done",
			"text:done",
			"tool-add:output-available",
			"tool-delete_file:output-denied",
			"tool-screenshot:output-available",
			"tool-lookup:output-error",
			"step-start",
			"text:done",
		]);
		expect(reply?.metadata).toMatchObject({ model: "gpt-5", provider: "openai", usage: { input: 400, output: 60 }, pi: { steps: [{ model: "claude-sonnet-4-5" }, { model: "gpt-5" }] } });
	});

	it("leaves an open call open, and a call cut off while its input streamed out", () => {
		const open = [transcript[1] as AgentMessage, assistant([{ type: "toolCall", id: "call_9", name: "add", arguments: { a: 1, b: 1 } }], { stopReason: "toolUse" })];
		expect(fromUIMessages(toUIMessages(open))).toEqual(open);
		const cut = fromUIMessages([
			{ id: "a", role: "assistant", parts: [{ type: "step-start" }, { type: "text", text: "Let me" }, { type: "tool-add", toolCallId: "c", state: "input-streaming", input: { a: 1 } }] },
		]);
		expect(cut).toMatchObject([{ role: "assistant", content: [{ type: "text", text: "Let me" }], provider: "unknown" }]);
	});
});
