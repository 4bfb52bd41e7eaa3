/**
 * The proxy wire format: what a proxy server streams back to `streamProxy`, one JSON event per
 * SSE `data:` line. It is `AssistantMessageEvent` without the `partial` snapshots (the client
 * rebuilds the message from the deltas, so a reply costs its deltas, not their square), and is
 * the format of `@mariozechner/pi-agent-core`'s `streamProxy`, so servers written for either
 * work with both. The optional fields beyond the reference's carry what an exact replay of the
 * message needs (signatures, redacted thinking, the response id) and the model that answered.
 */
import type { AssistantMessage, AssistantMessageEvent, StopReason } from "@pi/ai";

export type ProxyAssistantMessageEvent =
	| { type: "start" }
	| { type: "text_start"; contentIndex: number }
	| { type: "text_delta"; contentIndex: number; delta: string }
	| { type: "text_end"; contentIndex: number; contentSignature?: string }
	| { type: "thinking_start"; contentIndex: number; redacted?: boolean }
	| { type: "thinking_delta"; contentIndex: number; delta: string }
	| { type: "thinking_end"; contentIndex: number; contentSignature?: string }
	| { type: "toolcall_start"; contentIndex: number; id: string; toolName: string }
	| { type: "toolcall_delta"; contentIndex: number; delta: string }
	| { type: "toolcall_end"; contentIndex: number; thoughtSignature?: string }
	| {
			type: "done";
			reason: Extract<StopReason, "stop" | "length" | "toolUse" | "deferred">;
			usage: AssistantMessage["usage"];
			responseId?: string;
			responseModel?: string;
			rawStopReason?: string;
	  }
	| {
			type: "error";
			reason: Extract<StopReason, "aborted" | "error">;
			errorMessage?: string;
			usage: AssistantMessage["usage"];
			responseId?: string;
			responseModel?: string;
	  };

/**
 * The wire form of one event: the same event without its `partial`, plus the block's signature
 * on `*_end` events (and the ids and names of tool calls on `toolcall_start`).
 */
export function toProxyEvent(event: AssistantMessageEvent): ProxyAssistantMessageEvent {
	switch (event.type) {
		case "start":
			return { type: "start" };
		case "text_start":
			return { type: "text_start", contentIndex: event.contentIndex };
		case "text_delta":
		case "thinking_delta":
		case "toolcall_delta":
			return { type: event.type, contentIndex: event.contentIndex, delta: event.delta };
		case "thinking_start": {
			const block = event.partial.content[event.contentIndex];
			const redacted = block?.type === "thinking" && block.redacted === true;
			return redacted ? { type: "thinking_start", contentIndex: event.contentIndex, redacted } : { type: "thinking_start", contentIndex: event.contentIndex };
		}
		case "text_end":
		case "thinking_end": {
			const block = event.partial.content[event.contentIndex];
			const signature = block?.type === "text" ? block.textSignature : block?.type === "thinking" ? block.thinkingSignature : undefined;
			return signature === undefined ? { type: event.type, contentIndex: event.contentIndex } : { type: event.type, contentIndex: event.contentIndex, contentSignature: signature };
		}
		case "toolcall_start": {
			const block = event.partial.content[event.contentIndex];
			const call = block?.type === "toolCall" ? block : undefined;
			return { type: "toolcall_start", contentIndex: event.contentIndex, id: call?.id ?? "", toolName: call?.name ?? "" };
		}
		case "toolcall_end":
			return event.toolCall.thoughtSignature === undefined
				? { type: "toolcall_end", contentIndex: event.contentIndex }
				: { type: "toolcall_end", contentIndex: event.contentIndex, thoughtSignature: event.toolCall.thoughtSignature };
		case "done": {
			const done: ProxyAssistantMessageEvent = { type: "done", reason: event.reason, usage: event.message.usage };
			if (event.message.responseId !== undefined) done.responseId = event.message.responseId;
			if (event.message.responseModel !== undefined) done.responseModel = event.message.responseModel;
			if (event.message.rawStopReason !== undefined) done.rawStopReason = event.message.rawStopReason;
			return done;
		}
		case "error": {
			const error: ProxyAssistantMessageEvent = { type: "error", reason: event.reason, usage: event.error.usage };
			if (event.error.errorMessage !== undefined) error.errorMessage = event.error.errorMessage;
			if (event.error.responseId !== undefined) error.responseId = event.error.responseId;
			if (event.error.responseModel !== undefined) error.responseModel = event.error.responseModel;
			return error;
		}
	}
}
