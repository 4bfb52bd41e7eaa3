import type { AssistantMessageBuilder } from "../../assistant-message-builder.js";
import { blockedPromptMessage, mapStopReason } from "./map-stop-reason.js";
import { applyPartialArg } from "./partial-args.js";
import { parseUsage } from "./parse-usage.js";
import { createToolCallIdGenerator } from "./tool-call-id.js";
import { decodeTextSignature, encodeTextSignature, type ServerPartsEnvelope } from "./server-parts.js";
import type { GeminiPart, GeminiStreamChunk } from "./wire-types.js";

/** The message for a stream that stopped without a `finishReason` or `promptFeedback.blockReason`. */
export const UNFINISHED_STREAM_MESSAGE =
	"The stream ended before the provider's final event: Gemini sent no finishReason, so the reply may be incomplete.";

interface OpenTextBlock {
	index: number;
	kind: "text" | "thinking";
	signature: string | undefined;
}

/**
 * The streaming state machine of the Gemini API: turns parsed `streamGenerateContent` chunks into
 * {@link AssistantMessageBuilder} verbs. Only the first candidate is read (the provider never asks
 * for more).
 *
 * - Parts with `thought: true` are thinking, other text parts are text. A part of the same kind as
 *   the open block extends it; another kind, a function call or code closes it first, so content
 *   keeps wire order.
 * - `thoughtSignature` goes onto the block of its part: `thinkingSignature`, `textSignature`, or
 *   the call's `thoughtSignature`. A signed part whose block already holds another signature
 *   starts a new block (signatures must be replayed on the part they came with). An empty text
 *   part that only carries a signature (Gemini 3 ends text replies like that) opens no block: its
 *   signature goes onto the last block of its kind, if that one has none yet.
 * - `functionCall` parts become tool calls with the wire `id`, or a generated unique one, and
 *   their whole `args`. Vertex AI's streamed arguments (a call with `willContinue`, then nameless
 *   parts with `partialArgs`, ended by a part without `willContinue`, often an empty
 *   `functionCall: {}`) are assembled and set when the call ends.
 * - `executableCode` and `codeExecutionResult` (the server-side code-execution tool) are not
 *   model text and never tool calls: they stay out of the text, so the message's text is what
 *   the official SDK's `.text` gives. They are kept, each with its `thoughtSignature`, in the
 *   `textSignature` of the next text block (or the last one, when the reply ends with them; an
 *   empty text block when there is no text at all), so that the same model gets them back
 *   exactly (see server-parts.ts). Grounding metadata, citations and inline media are not part
 *   of the message.
 * - `usageMetadata` (cumulative) sets usage on every chunk; `responseId` sets the response id.
 * - `finishReason` and `promptFeedback.blockReason` are remembered and applied by {@link finish}
 *   when the stream ends, so a usage-only chunk after them still counts. An `error` object in a
 *   chunk ends the message at once with `error`.
 */
export class GeminiStreamState {
	private openText: OpenTextBlock | undefined;
	private readonly lastIndexOf: { text?: number; thinking?: number } = {};
	private streamingCall: { index: number; args: Record<string, unknown> } | undefined;
	private toolCallCount = 0;
	private finishReason: string | undefined;
	private finishMessage: string | undefined;
	private blockReason: { reason: string; message: string | undefined } | undefined;
	private readonly nextToolCallId: (name: string) => string;
	/** Code-execution parts waiting for the next text block. */
	private pendingServerParts: GeminiPart[] = [];
	/** Text blocks that carry code-execution parts, by content index. */
	private readonly envelopes = new Map<number, ServerPartsEnvelope>();

	constructor(
		private readonly builder: AssistantMessageBuilder,
		nextToolCallId: (name: string) => string = createToolCallIdGenerator(),
	) {
		this.nextToolCallId = nextToolCallId;
	}

	/**
	 * True once a `finishReason` or `promptFeedback.blockReason` arrived: Gemini's final chunk
	 * came, so the reply is complete even if the connection then fails instead of closing.
	 */
	get hasFinalChunk(): boolean {
		return this.finishReason !== undefined || this.blockReason !== undefined;
	}

	/** Applies one parsed chunk. Does nothing once the message finished. */
	handleChunk(chunk: GeminiStreamChunk): void {
		if (this.builder.isFinished) return;
		if (chunk.error) {
			this.flushStreamingCall();
			const { code, status, message } = chunk.error;
			const label = [status, code].filter((value) => value !== undefined && value !== "").join(" ");
			this.builder.finish("error", {
				rawStopReason: status,
				errorMessage: `Gemini reported an error in the stream${label ? ` (${label})` : ""}: ${message ?? "no message"}`,
			});
			return;
		}
		if (typeof chunk.responseId === "string" && chunk.responseId !== "") this.builder.setResponseId(chunk.responseId);
		this.builder.setResponseModel(chunk.modelVersion);
		if (chunk.usageMetadata) this.builder.setUsage(parseUsage(chunk.usageMetadata));
		const blockReason = chunk.promptFeedback?.blockReason;
		if (blockReason) this.blockReason = { reason: blockReason, message: chunk.promptFeedback?.blockReasonMessage };

		const candidate = chunk.candidates?.[0];
		if (!candidate) return;
		const parts = candidate.content?.parts;
		if (parts) for (const part of parts) this.handlePart(part);
		if (candidate.finishReason) {
			this.finishReason = candidate.finishReason;
			this.finishMessage = candidate.finishMessage;
		}
	}

	/** Ends the message after the last chunk: with the remembered finish or block reason, else `error`. */
	finish(): void {
		if (this.builder.isFinished) return;
		this.flushStreamingCall();
		this.placeTrailingServerParts();
		if (this.blockReason) {
			this.builder.finish("error", {
				rawStopReason: this.blockReason.reason,
				errorMessage: blockedPromptMessage(this.blockReason.reason, this.blockReason.message),
			});
			return;
		}
		if (this.finishReason === undefined) {
			this.builder.finish("error", { errorMessage: UNFINISHED_STREAM_MESSAGE });
			return;
		}
		const stop = mapStopReason(this.finishReason, this.toolCallCount > 0, this.finishMessage);
		this.builder.finish(stop.reason, { rawStopReason: this.finishReason, errorMessage: stop.errorMessage });
	}

	/** Sets the arguments of a Vertex call still being streamed, so a failure keeps what arrived. */
	flushStreamingCall(): void {
		const call = this.streamingCall;
		if (!call) return;
		this.streamingCall = undefined;
		if (this.builder.isFinished) return;
		this.builder.setToolCallArguments(call.index, call.args);
		this.builder.end(call.index);
	}

	private handlePart(part: GeminiPart): void {
		if (part.functionCall) {
			this.handleFunctionCall(part);
		} else if (part.executableCode || part.codeExecutionResult) {
			// Kept whole (with its signature) for replay; the next text starts a new block.
			this.closeText();
			this.pendingServerParts.push({ ...part });
		} else if (typeof part.text === "string") {
			this.handleText(part.text, part.thought === true ? "thinking" : "text", part.thoughtSignature);
		}
		// inlineData, fileData and other media have no place in an AssistantMessage.
	}

	private handleText(text: string, kind: "text" | "thinking", signature: string | undefined): void {
		const builder = this.builder;
		if (text === "") {
			if (!signature) return;
			const index = this.lastIndexOf[kind];
			const block = index === undefined ? undefined : builder.message.content[index];
			const current = block?.type === "text" ? decodeTextSignature(block.textSignature).thoughtSignature : block?.type === "thinking" ? block.thinkingSignature : "";
			if (index !== undefined && !current) {
				this.setSignature(index, kind, signature);
				if (this.openText?.index === index) this.openText.signature = signature;
			}
			return;
		}
		let open = this.openText;
		const conflicting = signature !== undefined && open?.signature !== undefined && open.signature !== signature;
		if (!open || open.kind !== kind || conflicting) {
			this.closeText();
			let index: number;
			if (kind === "text") {
				const before = this.pendingServerParts;
				this.pendingServerParts = [];
				const envelope: ServerPartsEnvelope = { before, after: [], ...(signature !== undefined ? { thoughtSignature: signature } : {}) };
				index = builder.startText(encodeTextSignature(envelope));
				if (before.length > 0) this.envelopes.set(index, envelope);
			} else {
				index = builder.startThinking({ signature });
			}
			open = { index, kind, signature };
			this.openText = open;
			this.lastIndexOf[kind] = index;
		} else if (signature !== undefined && open.signature === undefined) {
			this.setSignature(open.index, kind, signature);
			open.signature = signature;
		}
		if (kind === "text") builder.appendText(open.index, text);
		else builder.appendThinking(open.index, text);
	}

	private handleFunctionCall(part: GeminiPart): void {
		const call = part.functionCall as NonNullable<GeminiPart["functionCall"]>;
		const builder = this.builder;
		const pieces = call.partialArgs ?? [];
		if (call.name) {
			this.closeText();
			this.flushStreamingCall();
			const id = call.id || this.nextToolCallId(call.name);
			const index = builder.startToolCall(id, call.name, part.thoughtSignature);
			this.toolCallCount++;
			if (call.willContinue !== true && pieces.length === 0) {
				builder.setToolCallArguments(index, isObject(call.args) ? call.args : {});
				builder.end(index);
				return;
			}
			this.streamingCall = { index, args: isObject(call.args) ? { ...call.args } : {} };
		} else {
			// A continuation or the end marker of a Vertex streamed call; without an open call there is
			// nothing to continue, so a stray marker is ignored.
			if (!this.streamingCall) return;
			if (part.thoughtSignature) {
				const block = builder.message.content[this.streamingCall.index];
				if (block?.type === "toolCall" && !block.thoughtSignature) builder.setSignature(this.streamingCall.index, part.thoughtSignature);
			}
			if (isObject(call.args)) Object.assign(this.streamingCall.args, call.args);
		}
		const open = this.streamingCall;
		if (!open) return;
		for (const piece of pieces) applyPartialArg(open.args, piece);
		if (call.willContinue !== true) this.flushStreamingCall();
	}

	/** Sets a block's Gemini signature, keeping the code-execution parts a text block carries. */
	private setSignature(index: number, kind: "text" | "thinking", signature: string): void {
		const envelope = kind === "text" ? this.envelopes.get(index) : undefined;
		if (!envelope) return this.builder.setSignature(index, signature);
		envelope.thoughtSignature = signature;
		this.builder.setSignature(index, encodeTextSignature(envelope) as string);
	}

	/**
	 * Code-execution parts after the last text go onto the last text block (`after`), or onto an
	 * empty text block of their own when the reply has no text.
	 */
	private placeTrailingServerParts(): void {
		const parts = this.pendingServerParts;
		if (parts.length === 0) return;
		this.pendingServerParts = [];
		const last = this.lastIndexOf.text;
		if (last === undefined) {
			this.closeText();
			const envelope: ServerPartsEnvelope = { before: parts, after: [] };
			const index = this.builder.startText(encodeTextSignature(envelope));
			this.envelopes.set(index, envelope);
			this.builder.end(index);
			return;
		}
		const block = this.builder.message.content[last];
		const envelope = this.envelopes.get(last) ?? decodeTextSignature(block?.type === "text" ? block.textSignature : undefined);
		envelope.after.push(...parts);
		this.envelopes.set(last, envelope);
		this.builder.setSignature(last, encodeTextSignature(envelope) as string);
	}

	private closeText(): void {
		if (!this.openText) return;
		this.builder.end(this.openText.index);
		this.openText = undefined;
	}
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}
