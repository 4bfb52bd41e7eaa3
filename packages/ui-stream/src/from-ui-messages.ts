import type { AgentMessage } from "@pi/agent-core";
import type { AssistantMessage, ImageContent, StopReason, TextContent, ThinkingContent, ToolCall, ToolResultMessage } from "@pi/ai";
import { PI_KEY, type PiStepMetadata, zeroUsage } from "./pi-metadata.js";
import { UIMessagesError } from "./ui-messages-error.js";
import type { UIMessageInput } from "./ui-message.js";

/** Options of {@link fromUIMessages}. */
export interface FromUIMessagesOptions {
	/** The timestamp of messages whose metadata has none (a client's own). Default `Date.now()`. */
	now?: number;
}

/** A tool part's approval answer, read from the client's messages (see {@link approvalResponses}). */
export interface ApprovalResponse {
	toolCallId: string;
	approved: boolean;
	reason?: string;
}

type Part = Record<string, unknown> & { type: string };
type StepBlock = TextContent | ThinkingContent | ToolCall;

const TOOL_STATES = new Set(["input-streaming", "input-available", "approval-requested", "approval-responded", "output-available", "output-error", "output-denied"]);

/**
 * The AI SDK's UI messages (what `useChat` sends) as our transcript, valid for every provider:
 *
 * - a `user` message's text parts become text blocks (one text part: a string), image `file`
 *   parts with data URLs become image blocks, `text/*` files become text;
 * - an `assistant` message becomes one assistant message per step (`step-start` part), with
 *   `reasoning` as thinking, `text` as text and each tool part as a tool call, followed by the
 *   results of its calls: `output-available` (its `output`), `output-error` (an error result
 *   with `errorText`), `output-denied` (a rejected call's error result). A call still
 *   `input-available`, `approval-requested` or `approval-responded` stays open (no result); one
 *   whose input was still streaming (the client stopped the reply) is left out;
 * - a `system` message is refused, unless it is a compaction summary written by `toUIMessages`:
 *   the system prompt is the server's.
 *
 * What `toUIMessages` kept under `pi` (signatures, each step's model and usage, results'
 * images and details) is restored. `data-*`, `source-*` and `custom` parts are the app's and
 * are skipped.
 *
 * @throws {UIMessagesError} naming the first bad message or part, e.g.
 *   `uiMessages[1].parts[0]: a tool part needs a "toolCallId" string`.
 *
 * @example
 * ```ts
 * const { messages } = await request.json();
 * agent.state.messages = fromUIMessages(messages);
 * ```
 */
export function fromUIMessages(uiMessages: readonly UIMessageInput[], options: FromUIMessagesOptions = {}): AgentMessage[] {
	if (!Array.isArray(uiMessages)) throw new UIMessagesError("uiMessages", "expected an array of UI messages");
	const now = options.now ?? Date.now();
	const result: AgentMessage[] = [];
	uiMessages.forEach((value: unknown, index) => {
		const path = `uiMessages[${index}]`;
		if (!isRecord(value)) throw new UIMessagesError(path, "expected a UI message object");
		if (typeof value.id !== "string") throw new UIMessagesError(path, 'a UI message needs an "id" string');
		if (!Array.isArray(value.parts)) throw new UIMessagesError(path, 'a UI message needs a "parts" array');
		value.parts.forEach((part: unknown, partIndex) => {
			if (!isRecord(part) || typeof part.type !== "string") throw new UIMessagesError(`${path}.parts[${partIndex}]`, 'a part needs a "type" string');
		});
		const parts = value.parts as Part[];
		const metadata = piMetadata(value.metadata);
		if (value.role === "user") result.push(userMessage(parts, path, typeof metadata.timestamp === "number" ? metadata.timestamp : now));
		else if (value.role === "assistant") result.push(...assistantMessages(parts, path, value.metadata, now));
		else if (value.role === "system") result.push(compactionSummary(parts, path, metadata));
		else throw new UIMessagesError(path, `unknown role ${JSON.stringify(value.role)} (expected "user", "assistant" or "system")`);
	});
	return result;
}

/**
 * The approval answers of the last assistant UI message: its tool parts in `approval-responded`
 * state (set by the client's `addToolApprovalResponse`), in order.
 */
export function approvalResponses(uiMessages: readonly UIMessageInput[]): ApprovalResponse[] {
	const last = uiMessages[uiMessages.length - 1];
	if (!last || last.role !== "assistant") return [];
	const responses: ApprovalResponse[] = [];
	for (const part of last.parts as readonly Part[]) {
		if (!isToolPart(part) || part.state !== "approval-responded" || !isRecord(part.approval)) continue;
		const response: ApprovalResponse = { toolCallId: part.toolCallId as string, approved: part.approval.approved === true };
		if (typeof part.approval.reason === "string") response.reason = part.approval.reason;
		responses.push(response);
	}
	return responses;
}

function userMessage(parts: Part[], path: string, timestamp: number): AgentMessage {
	const content: (TextContent | ImageContent)[] = [];
	parts.forEach((part, index) => {
		const where = `${path}.parts[${index}]`;
		if (part.type === "text") content.push({ type: "text", text: textOf(part, where) });
		else if (part.type === "file") content.push(fileBlock(part, where));
		else if (!isAppPart(part.type)) throw new UIMessagesError(where, `a user message takes text and file parts, not "${part.type}"`);
	});
	const only = content[0];
	return { role: "user", content: content.length === 1 && only?.type === "text" ? only.text : content, timestamp };
}

function fileBlock(part: Part, where: string): TextContent | ImageContent {
	if (typeof part.mediaType !== "string" || typeof part.url !== "string") throw new UIMessagesError(where, 'a file part needs "mediaType" and "url" strings');
	const match = /^data:([^;,]*)((?:;[^;,]*)*),(.*)$/s.exec(part.url);
	if (!match) throw new UIMessagesError(where, `a file part needs a data URL (got ${JSON.stringify(part.url.slice(0, 40))}): fetch remote files on the server`);
	const base64 = (match[2] ?? "").split(";").includes("base64");
	const data = match[3] ?? "";
	if (part.mediaType.startsWith("image/")) {
		return { type: "image", mimeType: part.mediaType, data: base64 ? data : btoa(String.fromCharCode(...new TextEncoder().encode(decodeURIComponent(data)))) };
	}
	if (part.mediaType.startsWith("text/") || part.mediaType === "application/json") {
		const text = base64 ? new TextDecoder().decode(Uint8Array.from(atob(data), (char) => char.charCodeAt(0))) : decodeURIComponent(data);
		return { type: "text", text: typeof part.filename === "string" ? `${part.filename}:\n${text}` : text };
	}
	throw new UIMessagesError(where, `a file of type "${part.mediaType}" cannot be sent to the model (images and text files can)`);
}

function assistantMessages(parts: Part[], path: string, metadata: unknown, now: number): AgentMessage[] {
	const steps = stepRecords(metadata);
	const fallback = isRecord(metadata) ? metadata : {};
	const messages: AgentMessage[] = [];
	let blocks: StepBlock[] = [];
	let results: ToolResultMessage[] = [];
	let stepIndex = 0;
	let started = false;
	const closeStep = () => {
		const record = steps[stepIndex];
		if (blocks.length > 0 || record) {
			messages.push(assistantMessage(blocks, record, fallback, now), ...results);
		}
		blocks = [];
		results = [];
		stepIndex++;
	};
	parts.forEach((part, index) => {
		const where = `${path}.parts[${index}]`;
		if (part.type === "step-start") {
			if (started) closeStep();
			started = true;
		} else if (part.type === "text") {
			const block: TextContent = { type: "text", text: textOf(part, where) };
			const signature = piOf(part.providerMetadata).textSignature;
			if (typeof signature === "string") block.textSignature = signature;
			blocks.push(block);
		} else if (part.type === "reasoning") {
			const block: ThinkingContent = { type: "thinking", thinking: textOf(part, where) };
			const kept = piOf(part.providerMetadata);
			if (typeof kept.signature === "string") block.thinkingSignature = kept.signature;
			if (kept.redacted === true) block.redacted = true;
			blocks.push(block);
		} else if (isToolPart(part) || part.type.startsWith("tool-") || part.type === "dynamic-tool") {
			const call = toolCall(part, where);
			if (!call) return;
			blocks.push(call);
			const toolResult = toolResultOf(part, call, now);
			if (toolResult) results.push(toolResult);
		}
		// file, source-*, data-*, custom: the app's or the UI's, not the model's.
	});
	closeStep();
	return messages;
}

function assistantMessage(content: StepBlock[], record: PiStepMetadata | undefined, fallback: Record<string, unknown>, now: number): AssistantMessage {
	const provider = record?.provider ?? (typeof fallback.provider === "string" ? fallback.provider : "unknown");
	const model = record?.model ?? (typeof fallback.model === "string" ? fallback.model : "unknown");
	const stopReason: StopReason = record?.stopReason ?? (content.some((block) => block.type === "toolCall") ? "toolUse" : "stop");
	const message: AssistantMessage = {
		role: "assistant",
		content,
		api: record?.api ?? "unknown",
		provider,
		model,
		usage: record?.usage ?? zeroUsage(),
		stopReason,
		timestamp: record?.timestamp ?? now,
	};
	if (record?.responseId !== undefined) message.responseId = record.responseId;
	if (record?.responseModel !== undefined) message.responseModel = record.responseModel;
	if (record?.rawStopReason !== undefined) message.rawStopReason = record.rawStopReason;
	if (record?.errorMessage !== undefined) message.errorMessage = record.errorMessage;
	return message;
}

function toolCall(part: Part, where: string): ToolCall | undefined {
	if (typeof part.toolCallId !== "string") throw new UIMessagesError(where, 'a tool part needs a "toolCallId" string');
	if (typeof part.state !== "string" || !TOOL_STATES.has(part.state)) throw new UIMessagesError(where, `a tool part needs a known "state" (got ${JSON.stringify(part.state)})`);
	// Cut off while its input streamed (the client stopped the reply): the call never happened.
	if (part.state === "input-streaming") return undefined;
	const name = part.type === "dynamic-tool" ? part.toolName : part.type.slice("tool-".length);
	if (typeof name !== "string" || name === "") throw new UIMessagesError(where, 'a dynamic-tool part needs a "toolName" string');
	if (part.input !== undefined && !isRecord(part.input)) throw new UIMessagesError(where, 'a tool part\'s "input" must be an object');
	const call: ToolCall = { type: "toolCall", id: part.toolCallId, name, arguments: (part.input as Record<string, unknown> | undefined) ?? {} };
	const signature = piOf(part.callProviderMetadata).thoughtSignature;
	if (typeof signature === "string") call.thoughtSignature = signature;
	return call;
}

function toolResultOf(part: Part, call: ToolCall, now: number): ToolResultMessage | undefined {
	const kept = piOf(part.resultProviderMetadata);
	const timestamp = typeof kept.timestamp === "number" ? kept.timestamp : now;
	const base = { role: "toolResult" as const, toolCallId: call.id, toolName: call.name, timestamp };
	if (part.state === "output-available") {
		const text = typeof part.output === "string" ? part.output : (JSON.stringify(part.output) ?? "");
		return withDetails({ ...base, content: keptContent(kept) ?? [{ type: "text", text }], isError: false }, kept);
	}
	if (part.state === "output-error") {
		const text = typeof part.errorText === "string" ? part.errorText : "Tool call failed.";
		return withDetails({ ...base, content: keptContent(kept) ?? [{ type: "text", text }], isError: true }, kept);
	}
	if (part.state === "output-denied") {
		const reason = isRecord(part.approval) && typeof part.approval.reason === "string" ? part.approval.reason : undefined;
		// The same words as agent-core's rejected result, so that a transcript reads the same either way.
		const text = `Tool call "${call.name}" was rejected${reason ? ` (${reason})` : ""}.`;
		const resultTimestamp = piOf(part.callProviderMetadata).resultTimestamp;
		if (typeof resultTimestamp === "number") base.timestamp = resultTimestamp;
		return { ...base, content: [{ type: "text", text }], isError: true, details: reason === undefined ? { rejected: true } : { rejected: true, reason } };
	}
	return undefined;
}

function withDetails(message: ToolResultMessage, kept: Record<string, unknown>): ToolResultMessage {
	if (kept.details !== undefined) message.details = kept.details;
	return message;
}

function keptContent(kept: Record<string, unknown>): ToolResultMessage["content"] | undefined {
	return Array.isArray(kept.content) ? (kept.content as ToolResultMessage["content"]) : undefined;
}

function compactionSummary(parts: Part[], path: string, metadata: Record<string, unknown>): AgentMessage {
	const compaction = metadata.compaction;
	if (!isRecord(compaction)) throw new UIMessagesError(path, "a system message from the client is not taken: the system prompt is set on the server");
	const summary = parts.filter((part) => part.type === "text").map((part, index) => textOf(part, `${path}.parts[${index}]`)).join("\n");
	return {
		role: "compactionSummary",
		summary,
		tokensBefore: typeof compaction.tokensBefore === "number" ? compaction.tokensBefore : 0,
		timestamp: typeof compaction.timestamp === "number" ? compaction.timestamp : 0,
	};
}

function stepRecords(metadata: unknown): (PiStepMetadata | undefined)[] {
	const steps = piMetadata(metadata).steps;
	if (!Array.isArray(steps)) return [];
	return steps.map((step: unknown) => (isRecord(step) && typeof step.model === "string" && isRecord(step.usage) ? (step as unknown as PiStepMetadata) : undefined));
}

function textOf(part: Part, where: string): string {
	if (typeof part.text !== "string") throw new UIMessagesError(where, `a ${part.type} part needs a "text" string`);
	return part.text;
}

function isToolPart(part: Part): boolean {
	return part.type === "dynamic-tool" || (part.type.startsWith("tool-") && typeof part.toolCallId === "string");
}

function isAppPart(type: string): boolean {
	return type === "step-start" || type.startsWith("data-") || type.startsWith("source-") || type === "custom";
}

function piMetadata(metadata: unknown): Record<string, unknown> {
	return isRecord(metadata) && isRecord(metadata[PI_KEY]) ? (metadata[PI_KEY] as Record<string, unknown>) : {};
}

function piOf(providerMetadata: unknown): Record<string, unknown> {
	return piMetadata(providerMetadata);
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}
