import type { AssistantMessageBuilder } from "../../assistant-message-builder.js";
import { blockedPromptMessage, mapStopReason } from "./map-stop-reason.js";
import { applyPartialArg } from "./partial-args.js";
import { parseUsage } from "./parse-usage.js";
import { createToolCallIdGenerator } from "./tool-call-id.js";
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
 * - `executableCode` and `codeExecutionResult` (the server-side code-execution tool) are shown as
 *   text blocks of their own: a fenced code block in the code's language, and a fenced `output`
 *   block (with the outcome when it is not `OUTCOME_OK`). They are never tool calls. Grounding
 *   metadata, citations and inline media are not part of the message.
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
		} else if (part.executableCode) {
			const language = (part.executableCode.language ?? "").toLowerCase().replace(/^language_unspecified$/, "");
			this.addWholeText(fence(language, part.executableCode.code ?? ""));
		} else if (part.codeExecutionResult) {
			const { outcome, output } = part.codeExecutionResult;
			const note = outcome && outcome !== "OUTCOME_OK" ? `${outcome}\n` : "";
			this.addWholeText(fence("output", `${note}${output ?? ""}`));
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
			const current = block?.type === "text" ? block.textSignature : block?.type === "thinking" ? block.thinkingSignature : "";
			if (index !== undefined && !current) {
				builder.setSignature(index, signature);
				if (this.openText?.index === index) this.openText.signature = signature;
			}
			return;
		}
		let open = this.openText;
		const conflicting = signature !== undefined && open?.signature !== undefined && open.signature !== signature;
		if (!open || open.kind !== kind || conflicting) {
			this.closeText();
			const index = kind === "text" ? builder.startText(signature) : builder.startThinking({ signature });
			open = { index, kind, signature };
			this.openText = open;
			this.lastIndexOf[kind] = index;
		} else if (signature !== undefined && open.signature === undefined) {
			builder.setSignature(open.index, signature);
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

	/** Adds a complete text block of its own (code execution), closing the open one first. */
	private addWholeText(text: string): void {
		this.closeText();
		const index = this.builder.startText();
		this.builder.appendText(index, text);
		this.builder.end(index);
	}

	private closeText(): void {
		if (!this.openText) return;
		this.builder.end(this.openText.index);
		this.openText = undefined;
	}
}

/** A Markdown fenced block, its fence longer than any backtick run inside (code may hold fences). */
function fence(language: string, body: string): string {
	const text = body.endsWith("\n") ? body : `${body}\n`;
	let longest = 0;
	for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
	const marks = "`".repeat(Math.max(3, longest + 1));
	return `\n${marks}${language}\n${text}${marks}\n`;
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}
