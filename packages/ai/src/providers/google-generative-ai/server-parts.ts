import type { GeminiPart } from "./wire-types.js";

/**
 * Gemini parts that are not model text, kept on a text block so that the same model gets them
 * back exactly: `executableCode` and `codeExecutionResult` (the built-in code-execution tool),
 * each with its own `thoughtSignature`. They ride in the block's `textSignature`, encoded as
 * JSON with a marker, beside the block's own Gemini signature; `transformMessages` keeps text
 * signatures only for the same model, so other providers never see them (they get the text).
 *
 * The envelope: `{"piGeminiParts":1,"before":[…],"after":[…],"thoughtSignature":"…"}`, where
 * `before` are the parts that came just before the block's text and `after` the ones just after
 * it (only on the last text block, when the reply ended with code execution).
 */
export interface ServerPartsEnvelope {
	before: GeminiPart[];
	after: GeminiPart[];
	/** The text part's own Gemini `thoughtSignature`, if any. */
	thoughtSignature?: string;
}

const MARKER = '{"piGeminiParts":1,';

/** Whether a part is one this module keeps out of the text. */
export function isServerToolPart(part: GeminiPart): boolean {
	return part.executableCode !== undefined || part.codeExecutionResult !== undefined;
}

/** The `textSignature` for a text block with these parts (a plain signature when there are none). */
export function encodeTextSignature(envelope: ServerPartsEnvelope): string | undefined {
	if (envelope.before.length === 0 && envelope.after.length === 0) return envelope.thoughtSignature;
	const encoded: Record<string, unknown> = { piGeminiParts: 1, before: envelope.before, after: envelope.after };
	if (envelope.thoughtSignature !== undefined) encoded.thoughtSignature = envelope.thoughtSignature;
	return JSON.stringify(encoded);
}

/** Reads a `textSignature`: an envelope, or a plain Gemini signature as `thoughtSignature`. */
export function decodeTextSignature(signature: string | undefined): ServerPartsEnvelope {
	if (signature === undefined || !signature.startsWith(MARKER)) return { before: [], after: [], ...(signature ? { thoughtSignature: signature } : {}) };
	try {
		const value = JSON.parse(signature) as Partial<ServerPartsEnvelope>;
		const envelope: ServerPartsEnvelope = {
			before: Array.isArray(value.before) ? value.before : [],
			after: Array.isArray(value.after) ? value.after : [],
		};
		if (typeof value.thoughtSignature === "string") envelope.thoughtSignature = value.thoughtSignature;
		return envelope;
	} catch {
		// Not ours after all (a signature cannot start with this marker by accident, but be safe).
		return { before: [], after: [], thoughtSignature: signature };
	}
}
