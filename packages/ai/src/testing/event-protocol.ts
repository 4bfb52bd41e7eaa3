import type { AssistantMessage, AssistantMessageEvent, StopReason } from "../types.js";
import type { PartialState, RecordedEvents } from "./record-events.js";

/**
 * The rules {@link assertEventProtocol} checks, as named in its error messages. Each one comes
 * from the "Event protocol" section of the conformance rules or from the `AssistantMessage` contract.
 */
export type EventProtocolRule =
	/** There is at least one event. */
	| "events-present"
	/** Every event has one of the protocol's types. */
	| "known-type"
	/** The first event is `start`. */
	| "start-first"
	/** `start` comes only once. */
	| "single-start"
	/** The n-th `*_start` has `contentIndex` n: blocks are appended to `partial.content` in the order they open. */
	| "block-index"
	/** A `*_delta` or `*_end` refers to a block that was started. */
	| "block-started"
	/** Start, deltas and end of a block are of one family (text, thinking, toolcall), which matches the block's type. */
	| "block-type"
	/** Nothing refers to a block after its `*_end`. */
	| "block-after-end"
	/** Every opened block is ended before the terminal event. */
	| "blocks-closed"
	/** `text_end.content` / `thinking_end.content` equal the concatenated deltas. */
	| "end-content"
	/** `toolcall_end.toolCall.arguments` is an object equal to the parsed concatenated `toolcall_delta`s (`{}` for none). */
	| "toolcall-arguments"
	/** There is a terminal event (`done` or `error`). */
	| "terminal-present"
	/** The terminal event is the last one. */
	| "terminal-last"
	/** `done` has reason `stop`, `length`, `toolUse` or `deferred`; `error` has `error` or `aborted`. */
	| "terminal-reason"
	/** The final message's `stopReason` equals the terminal event's reason. */
	| "stop-reason"
	/** An `error` or `aborted` message has a non-empty `errorMessage`. */
	| "error-message"
	/** A `deferred` message has its `deferred` handle. */
	| "deferred-handle"
	/** The final message has exactly one content block per started block. */
	| "final-block-count"
	/** Each final block holds what its events streamed: the concatenated deltas, the ended tool call. */
	| "final-block-content"
	/** Final tool calls have a non-empty `id` and `name`, and ids are unique within the message. */
	| "toolcall-identity"
	/** Final blocks carry no keys beyond their type's fields (no partial-JSON buffers and the like). */
	| "no-scratch-fields"
	/** While streaming, `partial.stopReason` is `pending` (needs `partialStates` from `recordEvents`). */
	| "pending-while-streaming"
	/** At each block event, `partial.content[contentIndex]` is a block of that family (needs `partialStates`). */
	| "partial-block"
	/** `result()` settled with the terminal event's message (needs `result`). */
	| "result-matches-terminal";

/** What {@link assertEventProtocol} throws: the rule broken and the index of the event that broke it. */
export class EventProtocolError extends Error {
	override readonly name = "EventProtocolError";

	constructor(
		readonly rule: EventProtocolRule,
		/** Index into the event array; for whole-message rules, the terminal event's index. */
		readonly eventIndex: number,
		readonly eventType: string,
		readonly detail: string,
	) {
		super(`Event protocol rule "${rule}" broken at event #${eventIndex} (${eventType}): ${detail}`);
	}
}

/** Extra evidence for {@link assertEventProtocol}. Both fields are filled in from a `RecordedEvents` input. */
export interface EventProtocolOptions {
	/**
	 * Snapshots of the live `partial` taken as each event was pushed (from `recordEvents`), one per
	 * event; `undefined` entries are skipped. Enables the `pending-while-streaming` and
	 * `partial-block` rules, which cannot be checked after the fact because `partial` is one object
	 * that keeps changing.
	 */
	partialStates?: readonly (PartialState | undefined)[];
	/** What `stream.result()` settled with; enables `result-matches-terminal`. */
	result?: AssistantMessage;
	/**
	 * Accept tool-call deltas that do not concatenate to valid JSON in a `done` stream, as long as
	 * `arguments` is an object (a best-effort parse of what the model sent). Default `false`: a
	 * provider that drops or duplicates a fragment then fails loudly. In `error` streams, where a
	 * call may be cut mid-JSON, invalid JSON is always accepted.
	 */
	allowInvalidToolArguments?: boolean;
}

/** What a valid sequence holds, for quick assertions after {@link assertEventProtocol}. */
export interface EventProtocolSummary {
	/** How many events of each type, zero for absent types. */
	counts: Record<AssistantMessageEvent["type"], number>;
	/** The terminal event's message. */
	message: AssistantMessage;
}

type Family = "text" | "thinking" | "toolcall";

interface BlockRecord {
	family: Family;
	deltas: string[];
	ended: boolean;
	/** The concatenated deltas, fixed at `*_end`. */
	content?: string;
	/** `toolcall_end.toolCall`, for comparing with the final block. */
	toolCall?: Extract<AssistantMessageEvent, { type: "toolcall_end" }>["toolCall"];
}

const BLOCK_TYPE: Record<Family, "text" | "thinking" | "toolCall"> = { text: "text", thinking: "thinking", toolcall: "toolCall" };

/** The only keys a final block may carry, per block type. */
const ALLOWED_KEYS: Record<string, ReadonlySet<string>> = {
	text: new Set(["type", "text", "textSignature"]),
	thinking: new Set(["type", "thinking", "thinkingSignature", "redacted"]),
	toolCall: new Set(["type", "id", "name", "arguments", "thoughtSignature"]),
};

const DONE_REASONS: ReadonlySet<string> = new Set(["stop", "length", "toolUse", "deferred"]);
const ERROR_REASONS: ReadonlySet<string> = new Set(["error", "aborted"]);

/**
 * Checks a recorded event sequence against every rule of the event protocol and throws an
 * {@link EventProtocolError} naming the first rule broken and the event index. Returns a
 * {@link EventProtocolSummary} when the sequence is valid.
 *
 * Designed for after-the-fact use on a recorded array: it reads only per-event fields (`delta`,
 * `content`, `toolCall`, `contentIndex`, `reason`) and the final message, never `partial`, which is
 * the same live object on every event. Pass the result of `recordEvents(stream)` to also check
 * the rules that need a snapshot of `partial` at event time, and `result()` against the terminal event.
 *
 * @example
 * ```ts
 * const recorded = await recordEvents(stream(model, context, { apiKey: "test" }));
 * const { counts, message } = assertEventProtocol(recorded);
 * expect(counts.toolcall_end).toBe(2);
 * expect(message.stopReason).toBe("toolUse");
 * ```
 */
export function assertEventProtocol(
	input: readonly AssistantMessageEvent[] | RecordedEvents | { events: readonly AssistantMessageEvent[]; message: AssistantMessage },
	options: EventProtocolOptions = {},
): EventProtocolSummary {
	const events = isEventArray(input) ? input : input.events;
	const partialStates = options.partialStates ?? (!isEventArray(input) && "partialStates" in input ? input.partialStates : undefined);
	const result = options.result ?? (isEventArray(input) ? undefined : input.message);
	if (partialStates && partialStates.length !== events.length) {
		throw new TypeError(`assertEventProtocol: partialStates has ${partialStates.length} entries for ${events.length} events`);
	}

	const counts = zeroCounts();
	if (events.length === 0) throw new EventProtocolError("events-present", 0, "none", "the event list is empty");
	const endsInError = events[events.length - 1]?.type === "error";
	const blocks: BlockRecord[] = [];
	let terminal: { index: number; reason: string; message: AssistantMessage } | undefined;

	for (let index = 0; index < events.length; index++) {
		const event = events[index] as AssistantMessageEvent;
		const fail: Fail = (rule, detail) => {
			throw new EventProtocolError(rule, index, event.type, detail);
		};
		counts[event.type] = (counts[event.type] ?? 0) + 1;
		if (terminal) fail("terminal-last", `an event follows the terminal event #${terminal.index}`);
		if (index === 0 && event.type !== "start") fail("start-first", `the first event must be "start"`);
		const state = partialStates?.[index];

		switch (event.type) {
			case "start":
				if (index !== 0) fail("single-start", `"start" already came at event #0`);
				break;
			case "text_start":
			case "thinking_start":
			case "toolcall_start": {
				const family = familyOf(event.type);
				if (event.contentIndex !== blocks.length) {
					fail("block-index", `contentIndex ${event.contentIndex}, but ${blocks.length} block(s) were started before, so it must be ${blocks.length}`);
				}
				blocks.push({ family, deltas: [], ended: false });
				break;
			}
			case "text_delta":
			case "thinking_delta":
			case "toolcall_delta": {
				const block = openBlock(blocks, event.type, event.contentIndex, fail);
				block.deltas.push(event.delta);
				break;
			}
			case "text_end":
			case "thinking_end": {
				const block = openBlock(blocks, event.type, event.contentIndex, fail);
				block.ended = true;
				block.content = block.deltas.join("");
				if (event.content !== block.content) {
					fail("end-content", `content ${preview(event.content)} differs from the concatenated deltas ${preview(block.content)}`);
				}
				break;
			}
			case "toolcall_end": {
				const block = openBlock(blocks, event.type, event.contentIndex, fail);
				block.ended = true;
				block.content = block.deltas.join("");
				block.toolCall = event.toolCall;
				checkToolArguments(event.toolCall.arguments, block.content, endsInError, options.allowInvalidToolArguments === true, fail);
				break;
			}
			case "done":
			case "error": {
				const open = blocks.flatMap((block, blockIndex) => (block.ended ? [] : [`${block.family} block ${blockIndex}`]));
				if (open.length > 0) fail("blocks-closed", `still open at the terminal event: ${open.join(", ")}`);
				const allowed = event.type === "done" ? DONE_REASONS : ERROR_REASONS;
				if (!allowed.has(event.reason)) {
					fail("terminal-reason", `reason "${event.reason}" is not one of ${[...allowed].join(", ")}`);
				}
				terminal = { index, reason: event.reason, message: event.type === "done" ? event.message : event.error };
				break;
			}
			default: {
				const unknown: { type: string } = event;
				fail("known-type", `unknown event type "${unknown.type}"`);
			}
		}

		if (state && event.type !== "done" && event.type !== "error") checkPartialState(event, state, fail);
	}

	if (!terminal) {
		const last = events.length - 1;
		throw new EventProtocolError("terminal-present", last, (events[last] as AssistantMessageEvent).type, "the sequence has no done or error event");
	}
	checkFinalMessage(terminal.message, terminal.reason, blocks, (rule, detail) => {
		throw new EventProtocolError(rule, terminal.index, events[terminal.index]?.type ?? "?", detail);
	});
	if (result !== undefined && result !== terminal.message && !jsonEqual(result, terminal.message)) {
		throw new EventProtocolError("result-matches-terminal", terminal.index, events[terminal.index]?.type ?? "?", "result() settled with a message that differs from the terminal event's");
	}
	return { counts, message: terminal.message };
}

type Fail = (rule: EventProtocolRule, detail: string) => never;

function openBlock(blocks: BlockRecord[], type: string, contentIndex: number, fail: Fail): BlockRecord {
	const family = familyOf(type);
	const block = blocks[contentIndex];
	if (!block) fail("block-started", `no block was started at contentIndex ${contentIndex}`);
	else if (block.family !== family) fail("block-type", `block ${contentIndex} was started as ${block.family}, not ${family}`);
	else if (block.ended) fail("block-after-end", `block ${contentIndex} already ended`);
	return block as BlockRecord;
}

function checkToolArguments(args: unknown, text: string, endsInError: boolean, allowInvalid: boolean, fail: Fail): void {
	if (!isPlainObject(args)) fail("toolcall-arguments", `arguments must be a JSON object, got ${preview(args)}`);
	let parsed: unknown;
	try {
		parsed = text === "" ? {} : JSON.parse(text);
	} catch {
		// A call cut off by a failure cannot be complete JSON; the best-effort object is what it keeps.
		if (endsInError || allowInvalid) return;
		fail("toolcall-arguments", `the toolcall_delta fragments do not form valid JSON: ${preview(text)}`);
	}
	if (!jsonEqual(args, parsed)) {
		fail("toolcall-arguments", `arguments ${preview(args)} differ from the parsed deltas ${preview(parsed)}`);
	}
}

function checkPartialState(event: Exclude<AssistantMessageEvent, { type: "done" | "error" }>, state: PartialState, fail: Fail): void {
	if (state.stopReason !== "pending") fail("pending-while-streaming", `partial.stopReason was "${state.stopReason}", not "pending"`);
	if (event.type === "start") return;
	const expected = BLOCK_TYPE[familyOf(event.type)];
	if (state.blockType !== expected) {
		fail("partial-block", `partial.content[${event.contentIndex}] was ${state.blockType === undefined ? "missing" : `a ${state.blockType} block`}, expected a ${expected} block`);
	}
}

function checkFinalMessage(message: AssistantMessage, terminalReason: string, blocks: readonly BlockRecord[], fail: Fail): void {
	const reason: StopReason = message.stopReason;
	if (reason !== terminalReason) fail("stop-reason", `the final message's stopReason is "${reason}" but the terminal event's reason is "${terminalReason}"`);
	if (ERROR_REASONS.has(reason) && !(typeof message.errorMessage === "string" && message.errorMessage.length > 0)) {
		fail("error-message", `a message with stopReason "${reason}" needs a non-empty errorMessage`);
	}
	if (reason === "deferred" && !isPlainObject(message.deferred)) fail("deferred-handle", `a deferred message needs its deferred handle`);
	const content = message.content;
	if (!Array.isArray(content) || content.length !== blocks.length) {
		fail("final-block-count", `${blocks.length} block(s) were started but the final message has ${Array.isArray(content) ? content.length : "no"} content blocks`);
	}
	const toolCallIds = new Set<string>();
	content.forEach((block, blockIndex) => {
		const record = blocks[blockIndex] as BlockRecord;
		const expected = BLOCK_TYPE[record.family];
		if (block.type !== expected) fail("block-type", `final block ${blockIndex} is a ${block.type} block, but its events are ${record.family} events`);
		const extra = Object.keys(block).filter((key) => !ALLOWED_KEYS[block.type]?.has(key));
		if (extra.length > 0) fail("no-scratch-fields", `final block ${blockIndex} (${block.type}) has extra keys: ${extra.join(", ")}`);
		if (block.type === "text" && block.text !== record.content) {
			fail("final-block-content", `final block ${blockIndex} text ${preview(block.text)} differs from its deltas ${preview(record.content)}`);
		}
		if (block.type === "thinking" && block.thinking !== record.content) {
			fail("final-block-content", `final block ${blockIndex} thinking ${preview(block.thinking)} differs from its deltas ${preview(record.content)}`);
		}
		if (block.type === "toolCall") {
			const ended = record.toolCall;
			if (ended && (block.id !== ended.id || block.name !== ended.name || !jsonEqual(block.arguments, ended.arguments))) {
				fail("final-block-content", `final block ${blockIndex} differs from its toolcall_end.toolCall`);
			}
			if (typeof block.id !== "string" || block.id === "") fail("toolcall-identity", `final block ${blockIndex} has no tool call id`);
			if (typeof block.name !== "string" || block.name === "") fail("toolcall-identity", `final block ${blockIndex} has no tool name`);
			if (toolCallIds.has(block.id)) fail("toolcall-identity", `tool call id "${block.id}" is used twice`);
			toolCallIds.add(block.id);
		}
	});
}

function familyOf(type: string): Family {
	if (type.startsWith("text_")) return "text";
	if (type.startsWith("thinking_")) return "thinking";
	return "toolcall";
}

function zeroCounts(): Record<AssistantMessageEvent["type"], number> {
	return {
		start: 0,
		text_start: 0,
		text_delta: 0,
		text_end: 0,
		thinking_start: 0,
		thinking_delta: 0,
		thinking_end: 0,
		toolcall_start: 0,
		toolcall_delta: 0,
		toolcall_end: 0,
		done: 0,
		error: 0,
	};
}

function isEventArray(input: unknown): input is readonly AssistantMessageEvent[] {
	return Array.isArray(input);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Deep equality of JSON-like values. A key whose value is `undefined` counts as absent, as it
 * would after `JSON.stringify`.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
	if (a === b) return true;
	if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
	if (Array.isArray(a) !== Array.isArray(b)) return false;
	if (Array.isArray(a) && Array.isArray(b)) {
		return a.length === b.length && a.every((item, index) => jsonEqual(item, b[index]));
	}
	const left = a as Record<string, unknown>;
	const right = b as Record<string, unknown>;
	const leftKeys = Object.keys(left).filter((key) => left[key] !== undefined);
	const rightKeys = Object.keys(right).filter((key) => right[key] !== undefined);
	return leftKeys.length === rightKeys.length && leftKeys.every((key) => Object.hasOwn(right, key) && jsonEqual(left[key], right[key]));
}

function preview(value: unknown): string {
	let text: string;
	try {
		text = value === undefined ? "undefined" : JSON.stringify(value);
	} catch {
		text = String(value);
	}
	return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
