import type { AgentMessage, CompactionSummaryMessage } from "@pi/agent-core";
import type { AssistantMessage, ImageContent, TextContent, ToolResultMessage, UserMessage } from "@pi/ai";
import { addUsage, PI_KEY, type PiMessageMetadata, type PiStepMetadata, zeroUsage } from "./pi-metadata.js";
import type { JSONValue, ProviderMetadata, ToolUIPart, UIMessage, UIMessagePart } from "./ui-message.js";

/** Options of {@link toUIMessages}. */
export interface ToUIMessagesOptions {
	/** The id of the UI message that starts at `messages[index]`. Default `pi-<index>`. */
	messageId?: (message: AgentMessage, index: number) => string;
}

/**
 * Our transcript as the AI SDK's UI messages, e.g. to show a session's conversation in a
 * `useChat` page (`useChat({ messages: toUIMessages(session.buildContext().messages) })`).
 *
 * - A user message becomes a `user` UI message: text parts, and images as `file` parts with
 *   data URLs.
 * - An assistant message and the tool results and assistant messages after it (one agent run)
 *   become one `assistant` UI message: each model call is a step (`step-start`), its thinking a
 *   `reasoning` part, its text a `text` part, each tool call a `tool-<name>` part whose state
 *   comes from its result: `output-available` (the result's text as `output`), `output-error`
 *   (its text as `errorText`), `output-denied` (a rejected call), or `input-available` (no result).
 * - A compaction summary becomes a `system` UI message holding the summary. Custom app messages
 *   are not shown.
 *
 * What the UI format lacks is kept under a `pi` key, so that `fromUIMessages(toUIMessages(m))`
 * gives back every block: thinking signatures and text signatures in the part's
 * `providerMetadata`, Gemini's thought signature in `callProviderMetadata`, a result's images
 * and `details` in `resultProviderMetadata`, and each step's model, usage and stop reason in the
 * message's `metadata.pi.steps` ({@link PiMessageMetadata}).
 *
 * Pure: the same messages give the same UI messages.
 */
export function toUIMessages(messages: readonly AgentMessage[], options: ToUIMessagesOptions = {}): UIMessage[] {
	const messageId = options.messageId ?? ((_message, index) => `pi-${index}`);
	const result: UIMessage[] = [];
	let run: { message: UIMessage; metadata: PiMessageMetadata; tools: Map<string, ToolUIPart> } | undefined;
	messages.forEach((message, index) => {
		const role = (message as { role?: unknown }).role;
		if (role === "assistant") {
			const assistant = message as AssistantMessage;
			if (!run) {
				const metadata: PiMessageMetadata = { model: assistant.model, provider: assistant.provider, usage: zeroUsage(), pi: { steps: [] } };
				run = { message: { id: messageId(message, index), role: "assistant", metadata, parts: [] }, metadata, tools: new Map() };
				result.push(run.message);
			}
			appendStep(run, assistant);
		} else if (role === "toolResult") {
			const toolResult = message as ToolResultMessage;
			const part = run?.tools.get(toolResult.toolCallId);
			if (part) Object.assign(part, resultState(part, toolResult));
		} else if (role === "user") {
			run = undefined;
			result.push(userUIMessage(message as UserMessage, messageId(message, index)));
		} else if (role === "compactionSummary") {
			run = undefined;
			const summary = message as CompactionSummaryMessage;
			result.push({
				id: messageId(message, index),
				role: "system",
				metadata: { [PI_KEY]: { compaction: { tokensBefore: summary.tokensBefore, timestamp: summary.timestamp } } },
				parts: [{ type: "text", text: summary.summary }],
			});
		}
	});
	return result;
}

function userUIMessage(message: UserMessage, id: string): UIMessage {
	const blocks = typeof message.content === "string" ? [{ type: "text" as const, text: message.content }] : message.content;
	return { id, role: "user", metadata: { [PI_KEY]: { timestamp: message.timestamp } }, parts: blocks.map(userPart) };
}

function userPart(block: TextContent | ImageContent): UIMessagePart {
	return block.type === "text" ? { type: "text", text: block.text } : { type: "file", mediaType: block.mimeType, url: `data:${block.mimeType};base64,${block.data}` };
}

function appendStep(run: { message: UIMessage; metadata: PiMessageMetadata; tools: Map<string, ToolUIPart> }, message: AssistantMessage): void {
	run.message.parts.push({ type: "step-start" });
	for (const block of message.content) {
		if (block.type === "text") {
			run.message.parts.push(block.textSignature === undefined ? { type: "text", text: block.text, state: "done" } : { type: "text", text: block.text, state: "done", providerMetadata: pi({ textSignature: block.textSignature }) });
		} else if (block.type === "thinking") {
			const kept: Record<string, JSONValue> = {};
			if (block.thinkingSignature !== undefined) kept.signature = block.thinkingSignature;
			if (block.redacted) kept.redacted = true;
			run.message.parts.push(Object.keys(kept).length === 0 ? { type: "reasoning", text: block.thinking, state: "done" } : { type: "reasoning", text: block.thinking, state: "done", providerMetadata: pi(kept) });
		} else {
			const part: ToolUIPart = { type: `tool-${block.name}`, toolCallId: block.id, state: "input-available", input: block.arguments };
			if (block.thoughtSignature !== undefined) part.callProviderMetadata = pi({ thoughtSignature: block.thoughtSignature });
			run.tools.set(block.id, part);
			run.message.parts.push(part);
		}
	}
	run.metadata.model = message.model;
	run.metadata.provider = message.provider;
	run.metadata.usage = addUsage(run.metadata.usage, message.usage);
	run.metadata.pi.steps.push(stepMetadata(message));
}

/** A step's record: only the fields the message has, so that the round trip adds none. */
export function stepMetadata(message: AssistantMessage): PiStepMetadata {
	const step: PiStepMetadata = { api: message.api, provider: message.provider, model: message.model, usage: message.usage, stopReason: message.stopReason, timestamp: message.timestamp };
	if (message.responseId !== undefined) step.responseId = message.responseId;
	if (message.responseModel !== undefined) step.responseModel = message.responseModel;
	if (message.rawStopReason !== undefined) step.rawStopReason = message.rawStopReason;
	if (message.errorMessage !== undefined) step.errorMessage = message.errorMessage;
	return step;
}

/** The state a tool part takes from its result (see {@link toolResultOutput}). */
function resultState(part: ToolUIPart, result: ToolResultMessage): ToolUIPart {
	const details = result.details as { rejected?: unknown; reason?: unknown } | undefined;
	if (result.isError && details?.rejected === true) {
		const approval: { id: string; approved: false; reason?: string } = { id: part.toolCallId, approved: false };
		if (typeof details.reason === "string") approval.reason = details.reason;
		// The denied state has no result metadata: the result's timestamp rides with the call's.
		const kept = { ...(part.callProviderMetadata?.[PI_KEY] ?? {}), resultTimestamp: result.timestamp };
		return { type: part.type, toolCallId: part.toolCallId, state: "output-denied", input: part.input, approval, callProviderMetadata: pi(kept) };
	}
	const { text, metadata } = toolResultOutput(result);
	return result.isError
		? { type: part.type, toolCallId: part.toolCallId, state: "output-error", input: part.input, errorText: text, resultProviderMetadata: metadata, ...callMetadata(part) }
		: { type: part.type, toolCallId: part.toolCallId, state: "output-available", input: part.input, output: text, resultProviderMetadata: metadata, ...callMetadata(part) };
}

/**
 * A tool result as the UI shows it: its text (the blocks' texts, one per line), and under
 * `pi` what the text does not carry: the blocks themselves when they are not one text block,
 * the `details` and the timestamp.
 */
export function toolResultOutput(result: { content: ToolResultMessage["content"]; details?: unknown; timestamp?: number }): { text: string; metadata: ProviderMetadata } {
	const text = result.content.map((block) => (block.type === "text" ? block.text : `[image ${block.mimeType}]`)).join("\n");
	const kept: Record<string, JSONValue> = {};
	if (!(result.content.length === 1 && result.content[0]?.type === "text")) kept.content = result.content as unknown as JSONValue;
	if (result.details !== undefined) kept.details = result.details as JSONValue;
	if (result.timestamp !== undefined) kept.timestamp = result.timestamp;
	return { text, metadata: pi(kept) };
}

function callMetadata(part: ToolUIPart): { callProviderMetadata?: ProviderMetadata } {
	return part.callProviderMetadata ? { callProviderMetadata: part.callProviderMetadata } : {};
}

function pi(value: Record<string, JSONValue>): ProviderMetadata {
	return { [PI_KEY]: value };
}
