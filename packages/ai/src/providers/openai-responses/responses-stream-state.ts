import type { AssistantMessageBuilder } from "../../assistant-message-builder.js";
import type { Api, Model } from "../../types.js";
import { mapStopReason, providerErrorText } from "./map-stop-reason.js";
import { parseUsage } from "./parse-usage.js";
import { encodeTextSignature } from "./text-signature.js";
import { encodeToolCallId } from "./tool-call-id.js";
import { CHAT_COMPLETIONS_HINT } from "./chat-completions-hint.js";
import type { ResponsesOutputItem, ResponsesResponse, ResponsesStreamEvent } from "./wire-types.js";
import { isBlank } from "../../utils/is-blank.js";
import { makeHandle } from "../../deferred/handle.js";
import type { JsonValue } from "../../types.js";

/** Where a background response stands, to resume its stream (see {@link ResponsesStreamState}). */
export interface ResponsesResumePoint {
	responseId: string;
	/** The last `sequence_number` already handled: events up to it are skipped. */
	sequenceNumber?: number;
	status?: string;
}

/** One output item being streamed, keyed by its `output_index` (and its id). */
type Entry =
	| { kind: "text"; index: number; closed: boolean; itemId: string | undefined; hasText: boolean; lastPart: number | undefined; streamedParts: Set<number>; carried: CarriedItems }
	| { kind: "thinking"; index: number; closed: boolean; hasText: boolean; lastPart: number | undefined; streamedParts: Set<number>; carried: CarriedItems }
	| { kind: "toolCall"; index: number; closed: boolean; argumentsSeen: boolean }
	/** Items that are not content blocks: `web_search_call`, `file_search_call`, … (server-side tools). */
	| { kind: "other"; closed: boolean };

/**
 * Built-in tool items (`web_search_call`, …) carried by a text or thinking block for an exact
 * replay to the same model: the items that came just before its own item, and (on the last such
 * block) the ones that ended the reply. `item` is the block's own item, once it is complete.
 */
interface CarriedItems {
	before: unknown[];
	after: unknown[];
	item?: ResponsesOutputItem;
}
/** Events about the response as a whole; every other event is output. */
function isLifecycle(type: string): boolean {
	return type === "response.created" || type === "response.queued" || type === "response.in_progress";
}

/**
 * The key of a part of a reasoning item: summary parts are 0, 1, …; raw reasoning text parts
 * (`content_index`) are -1, -2, …, so that both kinds share one number space.
 */
function summaryPart(index: number | undefined): number {
	return index ?? 0;
}
function contentPart(index: number | undefined): number {
	return -1 - (index ?? 0);
}

/** Between two summary parts (or reasoning text parts) of one reasoning item. */
export const REASONING_PART_SEPARATOR = "\n\n";

/** A stream event whose `data` is not JSON. */
export class MalformedEventError extends Error {
	override readonly name = "MalformedEventError";
}

/**
 * The streaming state machine of the Responses API: maps parsed wire events to builder verbs.
 *
 * - Every output item is keyed by its `output_index` (deltas without one fall back to `item_id`),
 *   never by arrival order, so interleaved items cannot be mixed up.
 * - `message` items become one text block each (output text and refusal text alike), with the
 *   item id and `phase` as JSON in `textSignature`.
 * - `reasoning` items become one thinking block each: summary parts (`reasoning_summary_text`) and
 *   raw reasoning parts (`reasoning_text`, LM Studio / DeepSeek) are separated by a blank line
 *   within that block, so that one block maps to exactly one item to replay. At `output_item.done`
 *   the whole item JSON becomes the `thinkingSignature` (id and `encrypted_content` included).
 * - `function_call` items become tool calls with id `call_id|item_id`.
 * - Other items (`web_search_call`, …) are server-side (built-in) tools: no block and no text.
 *   Each complete item is kept, in order, on the signature of the next text or thinking block
 *   (`before`), or of the last one when the reply ends with it (`after`), so the same model gets
 *   them back exactly (see text-signature.ts and convert-messages.ts).
 * - Text that a server only sends whole (a `.done` event or the item at `output_item.done`, e.g.
 *   LM Studio's arguments) is used when no delta carried it.
 */
export class ResponsesStreamState {
	/** Built-in tool items waiting for the next text or thinking block. */
	private pendingItems: unknown[] = [];
	/** The last text or thinking entry, which takes trailing built-in tool items. */
	private lastCarrier: Extract<Entry, { carried: CarriedItems }> | undefined;
	private readonly byOutputIndex = new Map<number, Entry>();
	private readonly byItemId = new Map<string, Entry>();
	private hasFunctionCall = false;
	private responseId: string | undefined;
	private status: string | undefined;
	private background: boolean;
	private lastSequenceNumber: number | undefined;
	/** The last sequence number before the first output event: replaying after it rebuilds the whole reply. */
	private resumeAfter: number | undefined;
	private outputSeen = false;
	/** Whether any event had a Responses type (`response.*`, `error`), and whether any JSON payload lacked one. */
	private responsesEventSeen = false;
	private foreignPayloadSeen = false;
	private readonly resumed: boolean;

	/**
	 * `resume` continues a background response whose earlier events were handled elsewhere: the
	 * id and status are known, and events whose `sequence_number` is not past the resume point
	 * are skipped, so that a reconnection that repeats some cannot repeat a delta.
	 */
	constructor(
		private readonly builder: AssistantMessageBuilder,
		private readonly model: Model<Api>,
		options: { background?: boolean; resume?: ResponsesResumePoint } = {},
	) {
		this.background = options.background === true || options.resume !== undefined;
		const resume = options.resume;
		this.resumed = resume !== undefined;
		if (resume) {
			this.responseId = resume.responseId;
			builder.setResponseId(resume.responseId);
			this.status = resume.status ?? "in_progress";
			this.lastSequenceNumber = resume.sequenceNumber;
			this.resumeAfter = resume.sequenceNumber;
		}
	}

	/** The last `sequence_number` handled, the cursor to resume after. */
	get sequenceNumber(): number | undefined {
		return this.lastSequenceNumber;
	}

	/** True once the response id is known and the job is `queued` or `in_progress`: it can be deferred. */
	get canDefer(): boolean {
		return this.background && this.responseId !== undefined && (this.status === "queued" || this.status === "in_progress");
	}

	/** Ends the message `deferred` now, with a handle to resume the job (see {@link canDefer}). */
	deferNow(reason?: string): boolean {
		if (this.builder.isFinished) return true;
		return this.defer(reason);
	}

	/**
	 * Parses one SSE `data` payload and handles it. `[DONE]` (sent by some compatible servers) is
	 * ignored. Throws {@link MalformedEventError} when the payload is not JSON.
	 */
	handleData(data: string): void {
		if (data === "[DONE]" || isBlank(data)) return;
		let event: unknown;
		try {
			event = JSON.parse(data);
		} catch {
			const preview = data.length > 200 ? `${data.slice(0, 200)}…` : data;
			throw new MalformedEventError(`Malformed JSON in stream event: ${preview}`);
		}
		const type = typeof event === "object" && event !== null ? (event as { type?: unknown }).type : undefined;
		if (typeof type === "string" && (type.startsWith("response.") || type === "error")) this.responsesEventSeen = true;
		else this.foreignPayloadSeen = true;
		if (typeof type === "string") this.handle(event as ResponsesStreamEvent);
	}

	/** Handles one parsed event. Events after the message finished are ignored. */
	handle(event: ResponsesStreamEvent): void {
		if (this.builder.isFinished) return;
		if (typeof event.sequence_number === "number") {
			// A resumed stream must not apply an event twice, whatever the server repeats.
			if (this.resumed && this.lastSequenceNumber !== undefined && event.sequence_number <= this.lastSequenceNumber) return;
			this.lastSequenceNumber = event.sequence_number;
		}
		if (!isLifecycle(event.type)) this.outputSeen = true;
		else if (!this.outputSeen && typeof event.sequence_number === "number") this.resumeAfter = event.sequence_number;
		switch (event.type) {
			case "response.created":
			case "response.queued":
			case "response.in_progress":
				this.lifecycle(event.response);
				return;
			case "response.output_item.added":
				if (event.item) this.openItem(event.output_index, event.item);
				return;
			case "response.output_text.delta":
				this.appendText(event, event.content_index ?? 0, event.delta);
				return;
			case "response.refusal.delta":
				this.appendText(event, event.content_index ?? 0, event.delta, true);
				return;
			case "response.output_text.done":
				this.textDone(event, event.text);
				return;
			case "response.refusal.done":
				this.textDone(event, event.refusal, true);
				return;
			case "response.reasoning_summary_text.delta":
				this.appendReasoning(event, summaryPart(event.summary_index), event.delta);
				return;
			case "response.reasoning_summary_text.done":
				this.reasoningDone(event, summaryPart(event.summary_index), event.text);
				return;
			case "response.reasoning_text.delta":
				this.appendReasoning(event, contentPart(event.content_index), event.delta);
				return;
			case "response.reasoning_text.done":
				this.reasoningDone(event, contentPart(event.content_index), event.text);
				return;
			case "response.function_call_arguments.delta":
				this.appendArguments(event, event.delta);
				return;
			case "response.function_call_arguments.done":
				this.argumentsDone(event, event.arguments);
				return;
			case "response.output_item.done":
				if (event.item) this.closeItem(event.output_index, event.item);
				return;
			case "response.completed":
			case "response.incomplete":
			case "response.failed":
				this.terminal(event.type, event.response);
				return;
			case "error":
				// The stream's own error event (e.g. insufficient_quota): end now with the provider's
				// message; a `response.failed` usually follows and adds nothing.
				this.builder.finish("error", {
					rawStopReason: "error",
					errorMessage:
						providerErrorText(event.code ?? event.error?.code ?? event.error?.type, event.message ?? event.error?.message) ??
						"The provider sent an error event without a message.",
				});
				return;
			default:
				// content_part.added/done, annotations, web_search_call progress, keep-alives: no content.
				return;
		}
	}

	/**
	 * The body ended without a terminal event. A background response that is still `queued` or
	 * `in_progress` on the server ends as `deferred` with a handle to resume it; anything else is an
	 * `error` that keeps the content that arrived.
	 */
	end(): void {
		if (this.builder.isFinished) return;
		if (this.defer()) return;
		// A Chat Completions server answers `/responses` with chunks of its own (`choices`, no `type`).
		if (!this.responsesEventSeen && this.foreignPayloadSeen) {
			this.builder.finish("error", { errorMessage: `The stream held no Responses events (no response.* event arrived). ${CHAT_COMPLETIONS_HINT}` });
			return;
		}
		this.builder.finish("error", {
			errorMessage: "The stream ended before the provider's final event (no response.completed, response.incomplete or response.failed).",
		});
	}

	/**
	 * The connection failed mid-stream (reset, idle timeout). A background response lives on on the
	 * server, so it ends as `deferred` (returns `true`); otherwise the caller reports the error.
	 */
	interrupted(reason: string): boolean {
		if (this.builder.isFinished) return true;
		return this.defer(reason);
	}

	private defer(reason?: string): boolean {
		const status = this.status;
		if (!this.background || !this.responseId || (status !== "queued" && status !== "in_progress")) return false;
		const data: Record<string, JsonValue> = { status };
		if (this.lastSequenceNumber !== undefined) data.sequenceNumber = this.lastSequenceNumber;
		if (this.resumeAfter !== undefined) data.resumeAfter = this.resumeAfter;
		if (reason) data.reason = reason;
		this.builder.finish("deferred", { rawStopReason: status, deferred: makeHandle(this.model, this.responseId, { data }) });
		return true;
	}

	private lifecycle(response: ResponsesResponse | undefined): void {
		if (!response) return;
		if (typeof response.id === "string" && response.id && response.id !== this.responseId) {
			this.responseId = response.id;
			this.builder.setResponseId(response.id);
		}
		this.builder.setResponseModel(response.model);
		if (typeof response.status === "string") this.status = response.status;
		if (response.background === true) this.background = true;
	}

	private terminal(type: string, response: ResponsesResponse | undefined): void {
		this.lifecycle(response);
		if (response?.usage) this.builder.setUsage(parseUsage(response.usage));
		this.placeTrailingItems();
		const decision = mapStopReason(type, response, this.hasFunctionCall);
		this.builder.finish(decision.reason, { rawStopReason: decision.rawStopReason, errorMessage: decision.errorMessage });
	}

	private lookup(event: { output_index?: number; item_id?: string }): Entry | undefined {
		const byIndex = typeof event.output_index === "number" ? this.byOutputIndex.get(event.output_index) : undefined;
		if (byIndex) return byIndex;
		return typeof event.item_id === "string" ? this.byItemId.get(event.item_id) : undefined;
	}

	private openItem(outputIndex: number | undefined, item: ResponsesOutputItem): Entry {
		const known = this.lookup({ output_index: outputIndex, item_id: item.id });
		if (known) return known;
		let entry: Entry;
		if (item.type === "message") {
			const signature = item.id ? encodeTextSignature({ id: item.id, phase: item.phase ?? undefined }) : undefined;
			const carried = this.takePending();
			const withItems = item.id ? encodeTextSignature({ id: item.id, phase: item.phase ?? undefined, before: carried.before }) : signature;
			entry = { kind: "text", index: this.builder.startText(withItems), closed: false, itemId: item.id, hasText: false, lastPart: undefined, streamedParts: new Set(), carried };
			this.lastCarrier = entry;
		} else if (item.type === "reasoning") {
			const carried = this.takePending();
			entry = { kind: "thinking", index: this.builder.startThinking(), closed: false, hasText: false, lastPart: undefined, streamedParts: new Set(), carried };
			this.lastCarrier = entry;
		} else if (item.type === "function_call") {
			this.hasFunctionCall = true;
			const id = encodeToolCallId(item.call_id || item.id || `call_${outputIndex ?? this.byOutputIndex.size}`, item.id);
			entry = { kind: "toolCall", index: this.builder.startToolCall(id, item.name ?? ""), closed: false, argumentsSeen: false };
		} else {
			entry = { kind: "other", closed: false };
		}
		if (typeof outputIndex === "number") this.byOutputIndex.set(outputIndex, entry);
		if (item.id) this.byItemId.set(item.id, entry);
		return entry;
	}

	/** `refusal`: the text is the model's refusal (visible text; an error for structured output). */
	private appendText(event: ResponsesStreamEvent, part: number, delta: string | undefined, refusal = false): void {
		const entry = this.lookup(event) ?? this.implicitMessage(event);
		if (!entry || entry.kind !== "text" || entry.closed || !delta) return;
		entry.hasText = true;
		if (entry.lastPart !== part) {
			entry.lastPart = part;
			entry.streamedParts.add(part);
		}
		if (refusal) this.builder.appendRefusal(entry.index, delta);
		else this.builder.appendText(entry.index, delta);
	}

	private textDone(event: ResponsesStreamEvent, text: string | undefined, refusal = false): void {
		const entry = this.lookup(event);
		if (entry?.kind === "text" && !entry.streamedParts.has(event.content_index ?? 0)) {
			this.appendText(event, event.content_index ?? 0, text, refusal);
		}
	}

	/** A text delta for an item the server never announced: open its message block now. */
	private implicitMessage(event: ResponsesStreamEvent): Entry | undefined {
		if (typeof event.output_index !== "number" && typeof event.item_id !== "string") return undefined;
		return this.openItem(event.output_index, { type: "message", id: event.item_id });
	}

	private appendReasoning(event: ResponsesStreamEvent, part: number, delta: string | undefined): void {
		const entry = this.lookup(event) ?? this.implicitReasoning(event);
		if (!entry || entry.kind !== "thinking" || entry.closed || !delta) return;
		const separate = entry.hasText && entry.lastPart !== undefined && entry.lastPart !== part;
		entry.hasText = true;
		if (entry.lastPart !== part) {
			entry.lastPart = part;
			entry.streamedParts.add(part);
		}
		this.builder.appendThinking(entry.index, separate ? REASONING_PART_SEPARATOR + delta : delta);
	}

	private reasoningDone(event: ResponsesStreamEvent, part: number, text: string | undefined): void {
		const entry = this.lookup(event);
		if (entry?.kind === "thinking" && !entry.streamedParts.has(part)) this.appendReasoning(event, part, text);
	}

	private implicitReasoning(event: ResponsesStreamEvent): Entry | undefined {
		if (typeof event.output_index !== "number" && typeof event.item_id !== "string") return undefined;
		return this.openItem(event.output_index, { type: "reasoning", id: event.item_id });
	}

	private appendArguments(event: ResponsesStreamEvent, delta: string | undefined): void {
		const entry = this.lookup(event);
		if (!entry || entry.kind !== "toolCall" || entry.closed || !delta) return;
		entry.argumentsSeen = true;
		this.builder.appendToolCallArguments(entry.index, delta);
	}

	private argumentsDone(event: ResponsesStreamEvent, args: string | undefined): void {
		const entry = this.lookup(event);
		// LM Studio sends the arguments only here, without deltas.
		if (entry?.kind === "toolCall" && !entry.argumentsSeen) this.appendArguments(event, args);
	}

	private closeItem(outputIndex: number | undefined, item: ResponsesOutputItem): void {
		const entry = this.openItem(outputIndex, item);
		if (entry.closed) return;
		if (entry.kind === "text") {
			if (!entry.hasText) {
				const text = (item.content ?? []).map((part) => part.text ?? part.refusal ?? "").join("");
				if (text) {
					entry.hasText = true;
					this.builder.appendText(entry.index, text);
				}
			}
			// `phase` may be known only now; keep the signature complete.
			entry.carried.item = item;
			this.setCarrierSignature(entry);
		} else if (entry.kind === "thinking") {
			if (!entry.hasText) {
				// Summary parts, then raw reasoning text (`content`, LM Studio / DeepSeek).
				const parts = [...(item.summary ?? []), ...(item.content ?? [])];
				const text = parts
					.map((part) => part.text ?? "")
					.filter((part) => part !== "")
					.join(REASONING_PART_SEPARATOR);
				if (text) {
					entry.hasText = true;
					this.builder.appendThinking(entry.index, text);
				}
			}
			// The whole item, so that it can be replayed exactly (id, encrypted_content, summary).
			entry.carried.item = item;
			this.setCarrierSignature(entry);
		} else if (entry.kind === "toolCall") {
			if (!entry.argumentsSeen && item.arguments) {
				entry.argumentsSeen = true;
				this.builder.appendToolCallArguments(entry.index, item.arguments);
			}
		}
		else if (entry.kind === "other") this.pendingItems.push(item);
		entry.closed = true;
		if (entry.kind !== "other") this.builder.end(entry.index);
	}

	private takePending(): CarriedItems {
		const before = this.pendingItems;
		this.pendingItems = [];
		return { before, after: [] };
	}

	/** The block's signature: its own item plus the built-in tool items it carries. */
	private setCarrierSignature(entry: Extract<Entry, { carried: CarriedItems }>): void {
		const { item, before, after } = entry.carried;
		if (!item?.id) return;
		if (entry.kind === "text") {
			this.builder.setSignature(entry.index, encodeTextSignature({ id: item.id, phase: item.phase ?? undefined, before, after }));
		} else {
			const extra = { ...(before.length > 0 ? { piBefore: before } : {}), ...(after.length > 0 ? { piAfter: after } : {}) };
			this.builder.setSignature(entry.index, JSON.stringify({ ...item, ...extra }));
		}
	}

	/** Built-in tool items that ended the reply go onto the last text or thinking block. */
	private placeTrailingItems(): void {
		if (this.pendingItems.length === 0 || !this.lastCarrier) return;
		this.lastCarrier.carried.after.push(...this.pendingItems);
		this.pendingItems = [];
		this.setCarrierSignature(this.lastCarrier);
	}
}
