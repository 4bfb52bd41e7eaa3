import type { AssistantMessageBuilder } from "../../assistant-message-builder.js";
import { extractErrorMessage } from "../../http/error-body.js";
import type { ServerSentEvent } from "../../http/post-event-stream.js";
import { redactSecrets } from "../../utils/redact.js";
import { mapStopReason, stopReasonErrorMessage } from "./map-stop-reason.js";
import { parseUsage } from "./parse-usage.js";
import type { WireChunk, WireDelta, WireToolCallDelta } from "./wire-types.js";

/** What the caller does after {@link CompletionsStreamState.handle}: read on, or stop reading. */
export type HandleResult = "continue" | "stop";

/** The message of a stream that ended before its final event: neither a `finish_reason` nor `[DONE]` came. */
export const STREAM_ENDED_EARLY_MESSAGE =
	"The stream ended before the provider's final event (neither a finish_reason nor data: [DONE] was received).";

/**
 * The streaming state machine of Chat Completions: maps each server-sent event to builder verbs.
 *
 * - Text comes from `delta.content` (a string, or Mistral's array of `text` parts) and
 *   `delta.refusal`, which is visible text too.
 * - Thinking comes from `delta.reasoning_content` (DeepSeek, xAI, llama.cpp, vLLM),
 *   `delta.reasoning` (Groq, OpenRouter, Ollama, newer vLLM) and Mistral `thinking` parts.
 *   Switching between thinking and text closes one block and opens the other, so content keeps
 *   wire order.
 * - Tool calls are keyed by `tool_calls[].index` (by `id` for servers that send no index), never
 *   by arrival order; they stay open until the end, since a continuation may come at any time.
 * - Usage comes from any chunk's `usage` or Groq's `x_groq.usage`, including the `choices: []`
 *   chunk that follows the finish chunk.
 * - The `finish_reason` is remembered, not acted on: the message finishes at `data: [DONE]` or at
 *   the end of the body ({@link complete}), so that usage arriving after it is kept.
 * - `[DONE]` with no `finish_reason` before it (Snowflake Cortex, hand-written servers) ends the
 *   reply `stop`, or `toolUse` when tool calls arrived: `[DONE]` is the server's own end of the
 *   reply, as the AI SDK and pydantic-ai read it. A body that ends with neither is an error.
 * - An error inside the stream (Groq's `event: error`, a chunk with an `error` field) finishes the
 *   message with `error`, keeping its content.
 *
 * Work per event is proportional to the event: nothing is re-read or re-joined.
 */
export class CompletionsStreamState {
	private textIndex: number | undefined;
	private thinkingIndex: number | undefined;
	/** Wire key of a tool call (its `index`, or `id:<id>`) → content index. */
	private readonly toolCalls = new Map<number | string, number>();
	private lastToolKey: number | string | undefined;
	private finishReason: string | undefined;
	/** Content indexes of calls whose id was generated because the wire had none (yet). */
	private readonly generatedIds = new Set<number>();

	/**
	 * @param secrets Strings (an API key read from the environment) scrubbed from the error
	 *   messages this state writes, on top of what the builder scrubs.
	 */
	constructor(
		private readonly builder: AssistantMessageBuilder,
		private readonly secrets: readonly (string | undefined)[] = [],
	) {}

	/** Handles one server-sent event. Returns `stop` once the message is finished. */
	handle(event: ServerSentEvent): HandleResult {
		if (this.builder.isFinished) return "stop";
		const data = event.data.trim();
		if (data === "[DONE]") {
			this.complete(true);
			return "stop";
		}
		if (data === "") return "continue";
		let chunk: unknown;
		try {
			chunk = JSON.parse(data);
		} catch {
			throw new Error(redactSecrets(`Malformed JSON in stream event: ${preview(data)}`, this.secrets));
		}
		if (typeof chunk !== "object" || chunk === null || Array.isArray(chunk)) return "continue";
		const wire = chunk as WireChunk;
		if (event.event === "error" || (wire.error !== undefined && wire.error !== null)) {
			this.builder.finish("error", { errorMessage: redactSecrets(streamErrorMessage(data), this.secrets) });
			return "stop";
		}
		this.chunk(wire);
		return "continue";
	}

	/**
	 * The body ended, or `[DONE]` came (`sawDone`): finishes with the finish reason seen. With none,
	 * `[DONE]` means `stop` (`toolUse` after tool calls, no `rawStopReason`); a body that just ends
	 * is an error.
	 */
	complete(sawDone = false): void {
		if (this.builder.isFinished) return;
		const raw = this.finishReason;
		if (raw === undefined) {
			if (sawDone) this.builder.finish(this.toolCalls.size > 0 ? "toolUse" : "stop");
			else this.builder.finish("error", { errorMessage: STREAM_ENDED_EARLY_MESSAGE });
			return;
		}
		const reason = mapStopReason(raw, this.toolCalls.size > 0);
		this.builder.finish(reason, {
			rawStopReason: raw,
			errorMessage: reason === "error" ? stopReasonErrorMessage(raw) : undefined,
		});
	}

	private chunk(chunk: WireChunk): void {
		if (typeof chunk.id === "string" && chunk.id !== "" && this.builder.message.responseId === undefined) {
			this.builder.setResponseId(chunk.id);
		}
		this.builder.setResponseModel(chunk.model);
		// Azure's first chunk has `choices: []` and only prompt_filter_results; the usage chunk has
		// `choices: []` too.
		const choice = chunk.choices?.find((candidate) => (candidate.index ?? 0) === 0);
		if (choice) {
			if (choice.delta) this.delta(choice.delta);
			if (typeof choice.finish_reason === "string" && choice.finish_reason !== "") this.finishReason = choice.finish_reason;
		}
		const usage = chunk.usage ?? chunk.x_groq?.usage;
		if (usage && typeof usage === "object") this.builder.setUsage(parseUsage(usage));
	}

	private delta(delta: WireDelta): void {
		// Some servers send the same reasoning under both names (vLLM while renaming
		// `reasoning_content` to `reasoning`, gateways that fill both): read one, never both.
		if (typeof delta.reasoning_content === "string" && delta.reasoning_content !== "") this.thinking(delta.reasoning_content);
		else if (typeof delta.reasoning === "string") this.thinking(delta.reasoning);
		const content = delta.content;
		if (typeof content === "string") {
			this.text(content);
		} else if (Array.isArray(content)) {
			// Mistral (magistral) streams content as typed parts.
			for (const part of content) {
				if (part.type === "text" && "text" in part && typeof part.text === "string") this.text(part.text);
				else if (part.type === "thinking" && "thinking" in part && Array.isArray(part.thinking)) {
					for (const inner of part.thinking) if (typeof inner?.text === "string") this.thinking(inner.text);
				}
			}
		}
		if (typeof delta.refusal === "string") this.text(delta.refusal, true);
		if (Array.isArray(delta.tool_calls)) for (const call of delta.tool_calls) this.toolCall(call);
	}

	/** `refusal`: OpenAI's `delta.refusal`, visible text that is an error for structured output. */
	private text(delta: string, refusal = false): void {
		if (delta === "") return;
		if (this.textIndex === undefined) {
			this.closeThinking();
			this.textIndex = this.builder.startText();
		}
		if (refusal) this.builder.appendRefusal(this.textIndex, delta);
		else this.builder.appendText(this.textIndex, delta);
	}

	private thinking(delta: string): void {
		if (delta === "") return;
		if (this.thinkingIndex === undefined) {
			this.closeText();
			this.thinkingIndex = this.builder.startThinking();
		}
		this.builder.appendThinking(this.thinkingIndex, delta);
	}

	private toolCall(delta: WireToolCallDelta): void {
		if (typeof delta !== "object" || delta === null) return;
		const id = typeof delta.id === "string" && delta.id !== "" ? delta.id : undefined;
		const name = typeof delta.function?.name === "string" ? delta.function.name : undefined;
		const args = typeof delta.function?.arguments === "string" ? delta.function.arguments : undefined;
		// Servers that omit `index` (some proxies) start a call with an id and continue it without.
		const key =
			typeof delta.index === "number" ? delta.index : id !== undefined && !this.toolCalls.has(`id:${id}`) ? `id:${id}` : this.lastToolKey;
		let index = key === undefined ? undefined : this.toolCalls.get(key);
		if (index === undefined) {
			this.closeText();
			this.closeThinking();
			index = this.builder.startToolCall(id ?? generatedToolCallId(), name ?? "");
			if (id === undefined) this.generatedIds.add(index);
			const wireKey = key ?? `id:${index}`;
			this.toolCalls.set(wireKey, index);
			this.lastToolKey = wireKey;
		} else {
			this.lastToolKey = key;
			this.fillIdentity(index, id, name);
		}
		if (args !== undefined) this.builder.appendToolCallArguments(index, args);
	}

	/** A call whose id or name came only in a later chunk gets them then. */
	private fillIdentity(index: number, id: string | undefined, name: string | undefined): void {
		const block = this.builder.message.content[index];
		if (block?.type !== "toolCall") return;
		if (name && block.name === "") block.name = name;
		if (id && this.generatedIds.delete(index)) block.id = id;
	}

	private closeText(): void {
		if (this.textIndex === undefined) return;
		this.builder.end(this.textIndex);
		this.textIndex = undefined;
	}

	private closeThinking(): void {
		if (this.thinkingIndex === undefined) return;
		this.builder.end(this.thinkingIndex);
		this.thinkingIndex = undefined;
	}
}

/** The provider's message from an in-stream error payload, e.g. Groq's `tool_use_failed`. */
function streamErrorMessage(data: string): string {
	const message = extractErrorMessage(data);
	return message ? `The provider reported an error in the stream: ${message}` : "The provider reported an error in the stream.";
}

/** A unique id for a call the server sent without one. */
function generatedToolCallId(): string {
	return `call_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}

function preview(text: string): string {
	return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
