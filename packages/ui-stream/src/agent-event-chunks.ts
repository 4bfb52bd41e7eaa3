import type { AgentEvent, AgentMessage } from "@pi/agent-core";
import type { AssistantMessage, AssistantMessageEvent, StopReason, ToolCall, ToolResultMessage } from "@pi/ai";
import { PI_KEY } from "./pi-metadata.js";
import { toolResultOutput } from "./to-ui-messages.js";
import type { FinishReason, JSONValue, ProviderMetadata, UIMessageChunk } from "./ui-message.js";

/** Options of {@link createAgentEventChunks}. */
export interface AgentEventChunksOptions {
	/** Stream thinking as `reasoning-*` chunks. Default `true`. */
	sendReasoning?: boolean;
}

/**
 * The UI message stream chunks of one agent run, event by event: a pure state machine (the
 * same events give the same chunks) that `createAgentUIStream` drives. It sends neither `start`
 * nor `finish` (the stream does, with the metadata).
 *
 * - an assistant reply is a step: `start-step`, its text as `text-start`/`-delta`/`-end`, its
 *   thinking as `reasoning-*` (unless `sendReasoning: false`), each tool call as
 *   `tool-input-start`/`-delta`/`-available`, then `finish-step`; a failed reply adds an
 *   `error` chunk with its `errorMessage` (which never holds a key);
 * - a tool result message is `tool-output-available` (its text as `output`), or
 *   `tool-output-error` with its text, or `tool-output-denied` for a rejected call;
 * - `tool_approval_request` is `tool-approval-request`, with the call's id as approval id.
 *
 * Signatures and a result's details travel in `providerMetadata.pi`, as `toUIMessages` keeps them.
 *
 * @example
 * ```ts
 * const chunksOf = createAgentEventChunks();
 * agent.subscribe((event) => { for (const chunk of chunksOf(event)) writer.write(chunk); });
 * ```
 */
export function createAgentEventChunks(options: AgentEventChunksOptions = {}): (event: AgentEvent) => UIMessageChunk[] {
	const sendReasoning = options.sendReasoning ?? true;
	let step = 0;
	// Per content index of the reply streaming now: the id its chunks carry.
	let open = new Map<number, string>();
	let inStep = false;

	const onReplyEvent = (event: AssistantMessageEvent): UIMessageChunk[] => {
		switch (event.type) {
			case "text_start":
				return [{ type: "text-start", id: partId(event.contentIndex, "text") }];
			case "text_delta":
				return event.delta === "" ? [] : [{ type: "text-delta", id: partId(event.contentIndex, "text"), delta: event.delta }];
			case "text_end": {
				const block = event.partial.content[event.contentIndex];
				const signature = block?.type === "text" ? block.textSignature : undefined;
				return [withMetadata({ type: "text-end", id: partId(event.contentIndex, "text") }, signature === undefined ? undefined : { textSignature: signature })];
			}
			case "thinking_start":
				return sendReasoning ? [{ type: "reasoning-start", id: partId(event.contentIndex, "reasoning") }] : [];
			case "thinking_delta":
				return sendReasoning && event.delta !== "" ? [{ type: "reasoning-delta", id: partId(event.contentIndex, "reasoning"), delta: event.delta }] : [];
			case "thinking_end": {
				if (!sendReasoning) return [];
				const block = event.partial.content[event.contentIndex];
				const kept: Record<string, JSONValue> = {};
				if (block?.type === "thinking" && block.thinkingSignature !== undefined) kept.signature = block.thinkingSignature;
				if (block?.type === "thinking" && block.redacted) kept.redacted = true;
				return [withMetadata({ type: "reasoning-end", id: partId(event.contentIndex, "reasoning") }, Object.keys(kept).length > 0 ? kept : undefined)];
			}
			case "toolcall_start": {
				const call = event.partial.content[event.contentIndex] as ToolCall | undefined;
				if (!call?.id) return [];
				open.set(event.contentIndex, call.id);
				return [{ type: "tool-input-start", toolCallId: call.id, toolName: call.name }];
			}
			case "toolcall_delta": {
				const id = open.get(event.contentIndex);
				return id && event.delta !== "" ? [{ type: "tool-input-delta", toolCallId: id, inputTextDelta: event.delta }] : [];
			}
			case "toolcall_end": {
				const call = event.toolCall;
				const chunks: UIMessageChunk[] = [];
				// A provider that names the call only at its end gets its start here.
				if (open.get(event.contentIndex) !== call.id) chunks.push({ type: "tool-input-start", toolCallId: call.id, toolName: call.name });
				open.delete(event.contentIndex);
				chunks.push(withMetadata({ type: "tool-input-available", toolCallId: call.id, toolName: call.name, input: call.arguments }, call.thoughtSignature === undefined ? undefined : { thoughtSignature: call.thoughtSignature }));
				return chunks;
			}
			default:
				return [];
		}
	};

	// One id string per block, made once (a reply has tens of thousands of deltas).
	let ids: string[] = [];
	const partId = (contentIndex: number, kind: string): string => {
		const slot = contentIndex * 2 + (kind === "text" ? 0 : 1);
		let id = ids[slot];
		if (id === undefined) {
			id = `${kind}-${step}-${contentIndex}`;
			ids[slot] = id;
		}
		return id;
	};

	return (event) => {
		switch (event.type) {
			case "message_start":
				if (!isAssistant(event.message)) return [];
				step++;
				open = new Map();
				ids = [];
				inStep = true;
				return [{ type: "start-step" }];
			case "message_update":
				return onReplyEvent(event.assistantMessageEvent);
			case "message_end": {
				// A tool's result, whoever made it: the tool, a rejection, an interruption.
				if (isToolResult(event.message)) return [toolOutputChunk(event.message.toolCallId, event.message, event.message.isError)];
				if (!isAssistant(event.message) || !inStep) return [];
				inStep = false;
				const chunks: UIMessageChunk[] = [{ type: "finish-step" }];
				if (event.message.stopReason === "error") chunks.push({ type: "error", errorText: event.message.errorMessage ?? "The model call failed." });
				return chunks;
			}
			case "tool_approval_request":
				return [{ type: "tool-approval-request", approvalId: event.toolCallId, toolCallId: event.toolCallId }];
			default:
				return [];
		}
	};
}

/** The chunk of a tool's end: its output, its error text, or its denial. */
function toolOutputChunk(toolCallId: string, result: ToolResultMessage, isError: boolean): UIMessageChunk {
	const details = result.details as { rejected?: unknown } | undefined;
	if (isError && details?.rejected === true) return { type: "tool-output-denied", toolCallId };
	const { text, metadata } = toolResultOutput(result);
	return isError ? { type: "tool-output-error", toolCallId, errorText: text, providerMetadata: metadata } : { type: "tool-output-available", toolCallId, output: text, providerMetadata: metadata };
}

/** The AI SDK's finish reason for our stop reason. */
export function finishReasonOf(stopReason: StopReason | undefined): FinishReason {
	switch (stopReason) {
		case "stop":
			return "stop";
		case "length":
			return "length";
		case "toolUse":
			return "tool-calls";
		case "error":
			return "error";
		case "aborted":
			return "interrupted";
		default:
			return "other";
	}
}

type ChunkWithMetadata = Extract<UIMessageChunk, { providerMetadata?: ProviderMetadata }>;

function withMetadata(chunk: ChunkWithMetadata, kept: Record<string, JSONValue> | undefined): UIMessageChunk {
	if (kept) chunk.providerMetadata = { [PI_KEY]: kept };
	return chunk;
}

function isToolResult(message: AgentMessage): message is ToolResultMessage {
	return (message as { role?: unknown }).role === "toolResult";
}

function isAssistant(message: AgentMessage): message is AssistantMessage {
	return (message as { role?: unknown }).role === "assistant";
}
