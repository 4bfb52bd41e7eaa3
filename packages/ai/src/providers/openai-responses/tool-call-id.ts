import { sanitizeToolCallId } from "../../transform-messages.js";

/**
 * Tool-call ids of the Responses API are `call_id|item_id`: the `call_id` that results refer to,
 * then the `function_call` item id (`fc_…`, or a UUID on DeepSeek) that a replay to the same model
 * needs. Ids from other APIs have no `|` and are a bare call id.
 */
export interface ResponsesToolCallId {
	callId: string;
	/** Absent for ids of other APIs. */
	itemId?: string;
}

/** The longest `call_id` OpenAI accepts in an input item. */
export const MAX_CALL_ID_LENGTH = 64;

/**
 * Joins a call id and an item id into one `ToolCall.id`.
 *
 * @example
 * encodeToolCallId("call_AB6", "fc_0183") // "call_AB6|fc_0183"
 */
export function encodeToolCallId(callId: string, itemId: string | undefined): string {
	return itemId ? `${callId}|${itemId}` : callId;
}

/**
 * Splits a `ToolCall.id` (or a result's `toolCallId`) at its first `|`.
 *
 * @example
 * decodeToolCallId("call_AB6|fc_0183") // { callId: "call_AB6", itemId: "fc_0183" }
 * decodeToolCallId("toolu_01") // { callId: "toolu_01" }
 */
export function decodeToolCallId(id: string): ResponsesToolCallId {
	const bar = id.indexOf("|");
	if (bar < 0) return { callId: id };
	const itemId = id.slice(bar + 1);
	return itemId ? { callId: id.slice(0, bar), itemId } : { callId: id.slice(0, bar) };
}

/**
 * The `normalizeToolCallId` of this API, for `transformMessages`: the call id part must be at most
 * 64 characters of `[A-Za-z0-9_-]` (OpenAI rejects longer `call_id`s, and ids from other providers
 * can be anything); the item id part is kept as the server wrote it, since it is only replayed to
 * the server that made it.
 *
 * @example
 * normalizeResponsesToolCallId("call_1|fc_1") // unchanged
 * normalizeResponsesToolCallId("a.very/odd:id") // "a_very_odd_id_<hash>"
 */
export function normalizeResponsesToolCallId(id: string): string {
	const { callId, itemId } = decodeToolCallId(id);
	const safe = /^[A-Za-z0-9_-]+$/.test(callId) && callId.length <= MAX_CALL_ID_LENGTH ? callId : sanitizeToolCallId(callId, MAX_CALL_ID_LENGTH);
	return encodeToolCallId(safe, itemId);
}
