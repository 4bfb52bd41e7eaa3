/**
 * What a text block's `textSignature` holds for the Responses API: the output `message` item's id
 * and its `phase` (`commentary` for a preamble before tool calls, `final_answer`), stored as JSON so
 * that both can be replayed to the same model. OpenAI asks clients to resend `phase` on assistant
 * messages: dropping it can degrade newer models.
 */
export interface ResponsesTextSignature {
	id: string;
	phase?: string;
	/** Built-in tool items (`web_search_call`, …) that came just before this message, replayed before it. */
	before?: unknown[];
	/** Built-in tool items that ended the reply after this message, replayed after it. */
	after?: unknown[];
}

/**
 * @example
 * encodeTextSignature({ id: "msg_1", phase: "commentary" }) // '{"id":"msg_1","phase":"commentary"}'
 */
export function encodeTextSignature(signature: ResponsesTextSignature): string {
	const encoded: Record<string, unknown> = { id: signature.id };
	if (signature.phase) encoded.phase = signature.phase;
	// Written only when present, so a plain message's signature stays the reference's TextSignatureV1 shape.
	if (signature.before && signature.before.length > 0) encoded.before = signature.before;
	if (signature.after && signature.after.length > 0) encoded.after = signature.after;
	return JSON.stringify(encoded);
}

/**
 * Reads a `textSignature`. A signature that is not our JSON but a bare item id (`msg_…`, as other
 * libraries store it) is read as that id. Returns `undefined` for an empty or unusable value.
 */
export function decodeTextSignature(signature: string | undefined): ResponsesTextSignature | undefined {
	if (!signature) return undefined;
	if (signature.startsWith("{")) {
		try {
			const value: unknown = JSON.parse(signature);
			if (typeof value === "object" && value !== null) {
				const { id, phase, before, after } = value as { id?: unknown; phase?: unknown; before?: unknown; after?: unknown };
				if (typeof id === "string" && id) {
					const decoded: ResponsesTextSignature = typeof phase === "string" && phase ? { id, phase } : { id };
					if (Array.isArray(before) && before.length > 0) decoded.before = before;
					if (Array.isArray(after) && after.length > 0) decoded.after = after;
					return decoded;
				}
			}
		} catch {
			// not ours: fall through
		}
		return undefined;
	}
	return { id: signature };
}
