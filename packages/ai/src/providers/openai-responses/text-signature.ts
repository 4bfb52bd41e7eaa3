/**
 * What a text block's `textSignature` holds for the Responses API: the output `message` item's id
 * and its `phase` (`commentary` for a preamble before tool calls, `final_answer`), stored as JSON so
 * that both can be replayed to the same model. OpenAI asks clients to resend `phase` on assistant
 * messages: dropping it can degrade newer models.
 */
export interface ResponsesTextSignature {
	id: string;
	phase?: string;
}

/**
 * @example
 * encodeTextSignature({ id: "msg_1", phase: "commentary" }) // '{"id":"msg_1","phase":"commentary"}'
 */
export function encodeTextSignature(signature: ResponsesTextSignature): string {
	return JSON.stringify(signature.phase ? { id: signature.id, phase: signature.phase } : { id: signature.id });
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
				const { id, phase } = value as { id?: unknown; phase?: unknown };
				if (typeof id === "string" && id) return typeof phase === "string" && phase ? { id, phase } : { id };
			}
		} catch {
			// not ours: fall through
		}
		return undefined;
	}
	return { id: signature };
}
