import { encodeServerBlocks, type ServerBlocksEnvelope } from "./server-blocks.js";
import type { AssistantMessageBuilder } from "../../assistant-message-builder.js";
import { mapStopReason } from "./map-stop-reason.js";
import { parseUsage } from "./parse-usage.js";
import type { AnthropicStreamEvent, AnthropicWireContentBlock } from "./wire-types.js";

/** What a wire block index maps to. */
type OpenBlock =
	| { kind: "text" | "thinking"; contentIndex: number }
	/** The forced output tool's input, streamed as the reply's text. */
	| { kind: "outputTool"; contentIndex: number }
	| { kind: "toolCall"; contentIndex: number; wholeInput: boolean }
	/** A server-tool block, assembled whole (its streamed input included) for replay. */
	| { kind: "server"; block: Record<string, unknown>; inputJson: string };

/**
 * The streaming state machine of the Anthropic Messages API: feeds parsed wire events to an
 * {@link AssistantMessageBuilder}. Blocks are keyed by the wire's `index`, never by arrival order,
 * so interleaved deltas of parallel tool calls land on the right call.
 *
 * - `message_start`: response id and first usage; `message_delta`: stop reason and usage, whose
 *   fields win over the earlier ones; `message_stop`: finishes the message.
 * - `text`, `thinking`, `redacted_thinking` and client `tool_use` blocks become content blocks.
 *   Redacted thinking becomes a thinking block with `redacted: true` and the opaque `data` in
 *   `thinkingSignature`. Tool input that arrives whole in `content_block_start` is used as is.
 * - Server-side blocks (`server_tool_use`, `web_search_tool_result`, `tool_search_tool_result`,
 *   and whatever type comes next) are not text and not client calls: each is assembled whole and
 *   kept on the next text block's signature for an exact replay (see server-blocks.ts).
 * - `ping`, `citations_delta` and unknown event or delta types are ignored.
 * - `event: error` finishes the message as an error naming the error type and message, keeping
 *   the content that arrived.
 *
 * Each event costs time proportional to its own size.
 */
export class AnthropicStreamState {
	private readonly blocks = new Map<number, OpenBlock>();
	private stopReason: string | null | undefined;
	private refusalExplanation: string | undefined;
	/** Server-tool blocks waiting for the next text block. */
	private pendingServer: Record<string, unknown>[] = [];
	/** Text blocks carrying server-tool blocks, by content index. */
	private readonly carriers = new Map<number, ServerBlocksEnvelope>();
	private lastTextIndex: number | undefined;

	/** Whether a call of a tool other than the output tool started. */
	private calledTools = false;
	private calledOutputTool = false;

	/**
	 * @param outputTool The forced tool that carries structured output (see `applyOutput`): its
	 *   input becomes a text block (the reply's JSON), and a reply that only called it stops.
	 */
	constructor(
		private readonly builder: AssistantMessageBuilder,
		private readonly outputTool?: string,
	) {}

	/** True once `message_stop` or an `error` event ended the message. */
	get isFinished(): boolean {
		return this.builder.isFinished;
	}

	/** Applies one parsed event. Events after the message finished are ignored. */
	handle(event: AnthropicStreamEvent): void {
		if (this.builder.isFinished) return;
		switch (event.type) {
			case "message_start": {
				const message = event.message;
				if (typeof message?.id === "string" && message.id) this.builder.setResponseId(message.id);
				this.builder.setResponseModel(message?.model);
				this.builder.setUsage(parseUsage(message?.usage));
				break;
			}
			case "content_block_start":
				if (typeof event.index === "number" && event.content_block) this.startBlock(event.index, event.content_block);
				break;
			case "content_block_delta":
				this.applyDelta(event);
				break;
			case "content_block_stop": {
				const block = typeof event.index === "number" ? this.blocks.get(event.index) : undefined;
				if (block?.kind === "server") this.closeServerBlock(block);
				else if (block) this.builder.end(block.contentIndex);
				break;
			}
			case "message_delta": {
				const delta = event.delta;
				if (delta && delta.stop_reason !== undefined) this.stopReason = delta.stop_reason;
				const explanation = delta?.stop_details?.explanation;
				if (typeof explanation === "string" && explanation) this.refusalExplanation = explanation;
				this.builder.setUsage(parseUsage(event.usage));
				break;
			}
			case "message_stop": {
				this.placeTrailingServerBlocks();
				const mapped = mapStopReason(this.stopReason, this.refusalExplanation);
				// The forced output tool is the answer, not a call to run.
				if (mapped.reason === "toolUse" && this.calledOutputTool && !this.calledTools) mapped.reason = "stop";
				this.builder.finish(mapped.reason, { rawStopReason: mapped.rawStopReason, errorMessage: mapped.errorMessage });
				break;
			}
			case "error":
				this.builder.finish("error", { errorMessage: describeStreamError(event.error) });
				break;
			default:
				// `ping` keeps the connection alive; event types added later are safe to ignore.
				break;
		}
	}

	private startBlock(index: number, block: AnthropicWireContentBlock): void {
		const builder = this.builder;
		switch (block.type) {
			case "text": {
				const before = this.pendingServer;
				this.pendingServer = [];
				const envelope: ServerBlocksEnvelope = { before, after: [] };
				const contentIndex = builder.startText(encodeServerBlocks(envelope));
				if (before.length > 0) this.carriers.set(contentIndex, envelope);
				this.lastTextIndex = contentIndex;
				if (block.text) builder.appendText(contentIndex, block.text);
				this.blocks.set(index, { kind: "text", contentIndex });
				break;
			}
			case "thinking": {
				const contentIndex = builder.startThinking(block.signature ? { signature: block.signature } : {});
				if (block.thinking) builder.appendThinking(contentIndex, block.thinking);
				this.blocks.set(index, { kind: "thinking", contentIndex });
				break;
			}
			case "redacted_thinking": {
				const contentIndex = builder.startThinking({ redacted: true, signature: block.data ?? "" });
				this.blocks.set(index, { kind: "thinking", contentIndex });
				break;
			}
			case "tool_use": {
				if (this.outputTool !== undefined && block.name === this.outputTool) {
					this.calledOutputTool = true;
					const contentIndex = builder.startText();
					if (isNonEmptyObject(block.input)) builder.appendText(contentIndex, JSON.stringify(block.input));
					this.blocks.set(index, { kind: "outputTool", contentIndex });
					break;
				}
				this.calledTools = true;
				const contentIndex = builder.startToolCall(block.id ?? "", block.name ?? "");
				// The API streams `input: {}` and then input_json_delta fragments; some proxies (and
				// replays of non-streamed messages) put the whole input here instead.
				const input = block.input;
				const wholeInput = isNonEmptyObject(input);
				if (wholeInput) builder.setToolCallArguments(contentIndex, input);
				this.blocks.set(index, { kind: "toolCall", contentIndex, wholeInput });
				break;
			}
			default:
				// server_tool_use, web_search_tool_result, tool_search_tool_result, mcp_tool_use, …:
				// run by Anthropic, not by the caller; kept whole for replay.
				this.blocks.set(index, { kind: "server", block: { ...(block as unknown as Record<string, unknown>) }, inputJson: "" });
		}
	}

	/** A server-tool block is complete: its streamed input (if any) is parsed onto it. */
	private closeServerBlock(open: Extract<OpenBlock, { kind: "server" }>): void {
		if (open.inputJson !== "") {
			try {
				open.block.input = JSON.parse(open.inputJson);
			} catch {
				open.block.input = {}; // cut short: replaying a half input would be rejected
			}
		}
		this.pendingServer.push(open.block);
	}

	/** Server-tool blocks after the last text go onto it, or onto an empty text block of their own. */
	private placeTrailingServerBlocks(): void {
		if (this.pendingServer.length === 0) return;
		const blocks = this.pendingServer;
		this.pendingServer = [];
		const last = this.lastTextIndex;
		if (last === undefined) {
			const envelope: ServerBlocksEnvelope = { before: blocks, after: [] };
			const index = this.builder.startText(encodeServerBlocks(envelope));
			this.builder.end(index);
			return;
		}
		const envelope = this.carriers.get(last) ?? { before: [], after: [] };
		envelope.after.push(...blocks);
		this.carriers.set(last, envelope);
		this.builder.setSignature(last, encodeServerBlocks(envelope) as string);
	}

	private applyDelta(event: AnthropicStreamEvent): void {
		const delta = event.delta;
		const block = typeof event.index === "number" ? this.blocks.get(event.index) : undefined;
		if (!delta || !block) return;
		if (block.kind === "server") {
			if (delta.type === "input_json_delta" && typeof delta.partial_json === "string") block.inputJson += delta.partial_json;
			return;
		}
		const builder = this.builder;
		switch (delta.type) {
			case "text_delta":
				if (block.kind === "text" && typeof delta.text === "string") builder.appendText(block.contentIndex, delta.text);
				break;
			case "thinking_delta":
				if (block.kind === "thinking" && typeof delta.thinking === "string") builder.appendThinking(block.contentIndex, delta.thinking);
				break;
			case "signature_delta":
				if (block.kind === "thinking" && typeof delta.signature === "string") builder.setSignature(block.contentIndex, delta.signature);
				break;
			case "input_json_delta":
				if (block.kind === "outputTool" && typeof delta.partial_json === "string") {
					builder.appendText(block.contentIndex, delta.partial_json);
					break;
				}
				if (block.kind === "toolCall" && !block.wholeInput && typeof delta.partial_json === "string") {
					builder.appendToolCallArguments(block.contentIndex, delta.partial_json);
				}
				break;
			default:
				// citations_delta (citations are not kept) and delta types added later.
				break;
		}
	}
}

/** `overloaded_error: Overloaded` from an `event: error` payload's `error` object. */
export function describeStreamError(error: { type?: string; message?: string } | undefined): string {
	const type = typeof error?.type === "string" && error.type ? error.type : undefined;
	const message = typeof error?.message === "string" && error.message ? error.message : undefined;
	if (type && message) return `${type}: ${message}`;
	return message ?? type ?? "The stream reported an error without details.";
}

function isNonEmptyObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length > 0;
}
