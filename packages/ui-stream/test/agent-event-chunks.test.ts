import type { AgentEvent } from "@pi/agent-core";
import { type AssistantMessage, fauxAssistantMessage, fauxText } from "@pi/ai";
import { createAgentEventChunks } from "@pi/ui-stream";
import { describe, expect, it } from "vitest";
import { expectValidChunks } from "./helpers/ai-schemas.js";

function reply(content: AssistantMessage["content"], stopReason: AssistantMessage["stopReason"] = "stop", errorMessage?: string): AssistantMessage {
	return fauxAssistantMessage(content, errorMessage === undefined ? { stopReason } : { stopReason, errorMessage });
}

describe("createAgentEventChunks: agent events to UI message chunks", () => {
	it("maps a reply's blocks, keeping signatures under providerMetadata.pi, and starts a call a provider names only at its end", async () => {
		const message = reply([{ type: "text", text: "Hi", textSignature: "msg_1" }, { type: "thinking", thinking: "hm", thinkingSignature: "sig" }, { type: "toolCall", id: "c1", name: "add", arguments: { a: 1 } }], "toolUse");
		const events: AgentEvent[] = [
			{ type: "message_start", message },
			{ type: "message_update", message, assistantMessageEvent: { type: "text_start", contentIndex: 0, partial: message } },
			{ type: "message_update", message, assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "Hi", partial: message } },
			{ type: "message_update", message, assistantMessageEvent: { type: "text_end", contentIndex: 0, content: "Hi", partial: message } },
			{ type: "message_update", message, assistantMessageEvent: { type: "thinking_start", contentIndex: 1, partial: message } },
			{ type: "message_update", message, assistantMessageEvent: { type: "thinking_end", contentIndex: 1, content: "hm", partial: message } },
			{ type: "message_update", message, assistantMessageEvent: { type: "toolcall_end", contentIndex: 2, toolCall: message.content[2] as never, partial: message } },
			{ type: "message_end", message },
			{ type: "tool_execution_end", toolCallId: "c1", toolName: "add", result: { content: [{ type: "text", text: "2" }], details: { sum: 2 } }, isError: false },
			{ type: "message_end", message: { role: "toolResult", toolCallId: "c1", toolName: "add", content: [{ type: "text", text: "2" }], details: { sum: 2 }, isError: false, timestamp: 9 } },
		];
		const chunksOf = createAgentEventChunks();
		const chunks = events.flatMap((event) => chunksOf(event));
		expect(chunks).toEqual([
			{ type: "start-step" },
			{ type: "text-start", id: "text-1-0" },
			{ type: "text-delta", id: "text-1-0", delta: "Hi" },
			{ type: "text-end", id: "text-1-0", providerMetadata: { pi: { textSignature: "msg_1" } } },
			{ type: "reasoning-start", id: "reasoning-1-1" },
			{ type: "reasoning-end", id: "reasoning-1-1", providerMetadata: { pi: { signature: "sig" } } },
			{ type: "tool-input-start", toolCallId: "c1", toolName: "add" },
			{ type: "tool-input-available", toolCallId: "c1", toolName: "add", input: { a: 1 } },
			{ type: "finish-step" },
			{ type: "tool-output-available", toolCallId: "c1", output: "2", providerMetadata: { pi: { details: { sum: 2 }, timestamp: 9 } } },
		]);
		await expectValidChunks(chunks);
	});

	it("maps approvals, denials, failing tools and failed replies", async () => {
		const failed = reply([fauxText("")], "error", "429 Too Many Requests: slow down");
		const chunksOf = createAgentEventChunks();
		const chunks = [
			...chunksOf({ type: "tool_approval_request", toolCallId: "c2", toolName: "delete_file", args: { path: "a" } }),
			...chunksOf({ type: "message_end", message: { role: "toolResult", toolCallId: "c2", toolName: "delete_file", content: [{ type: "text", text: 'Tool call "delete_file" was rejected.' }], details: { rejected: true }, isError: true, timestamp: 9 } }),
			...chunksOf({ type: "message_end", message: { role: "toolResult", toolCallId: "c3", toolName: "lookup", content: [{ type: "text", text: "boom" }], details: {}, isError: true, timestamp: 9 } }),
			...chunksOf({ type: "message_start", message: failed }),
			...chunksOf({ type: "message_end", message: failed }),
		];
		expect(chunks).toEqual([
			{ type: "tool-approval-request", approvalId: "c2", toolCallId: "c2" },
			{ type: "tool-output-denied", toolCallId: "c2" },
			{ type: "tool-output-error", toolCallId: "c3", errorText: "boom", providerMetadata: { pi: { details: {}, timestamp: 9 } } },
			{ type: "start-step" },
			{ type: "finish-step" },
			{ type: "error", errorText: "429 Too Many Requests: slow down" },
		]);
		await expectValidChunks(chunks);
	});
});
