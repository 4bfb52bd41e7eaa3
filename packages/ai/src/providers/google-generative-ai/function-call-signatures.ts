import type { GeminiContent } from "./wire-types.js";

/**
 * Google's documented placeholder for a function call that has no real thought signature: it
 * tells Gemini 3 to skip the signature check for that call
 * (https://ai.google.dev/gemini-api/docs/thought-signatures, FAQ on injecting function calls).
 */
export const SKIP_THOUGHT_SIGNATURE = "skip_thought_signature_validator";

/**
 * Gemini 3 answers 400 when a function call of the current turn lacks its thought signature. The
 * current turn is everything after the content holding the user's last own message (not a tool
 * result), given as `turnStart`; in each of its `model` contents the API checks the first
 * `functionCall` part (in parallel calls only the first one is signed). Where that part has no
 * signature (the call came from another model, or the transcript lost it) it gets
 * {@link SKIP_THOUGHT_SIGNATURE}. Real signatures are never replaced, and earlier turns are left
 * alone (the API does not validate them).
 *
 * Mutates `contents` in place.
 */
export function addMissingFunctionCallSignatures(contents: GeminiContent[], turnStart: number): void {
	for (let index = Math.max(0, turnStart); index < contents.length; index++) {
		const content = contents[index] as GeminiContent;
		if (content.role !== "model") continue;
		const first = content.parts.find((part) => part.functionCall !== undefined);
		if (first && !first.thoughtSignature) first.thoughtSignature = SKIP_THOUGHT_SIGNATURE;
	}
}
