/** The textSignature of Responses text: the message item id and phase, as JSON. */
import { expect, it } from "vitest";
import { decodeTextSignature, encodeTextSignature } from "../../../src/providers/openai-responses/text-signature.js";

it("round-trips id and phase, and reads bare ids of other libraries", () => {
	expect(encodeTextSignature({ id: "msg_1" })).toBe('{"id":"msg_1"}');
	expect(encodeTextSignature({ id: "msg_1", phase: "commentary" })).toBe('{"id":"msg_1","phase":"commentary"}');
	expect(decodeTextSignature('{"id":"msg_1","phase":"commentary"}')).toEqual({ id: "msg_1", phase: "commentary" });
	expect(decodeTextSignature("msg_legacy")).toEqual({ id: "msg_legacy" });
	expect(decodeTextSignature(undefined)).toBeUndefined();
	expect(decodeTextSignature("{not json")).toBeUndefined();
	expect(decodeTextSignature('{"phase":"final_answer"}')).toBeUndefined();
});
