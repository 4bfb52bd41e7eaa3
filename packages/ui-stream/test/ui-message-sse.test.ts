import { describe, expect, it } from "vitest";
import { sseEvent } from "../src/ui-message-sse.js";
import type { UIMessageChunk } from "../src/ui-message.js";

describe("sseEvent", () => {
	it("writes deltas by hand exactly as JSON.stringify writes the chunk, awkward text included", () => {
		const texts = ['plain', 'quote " and backslash \\', "new\nline\r\ttab", "emoji 🦊 and é", "\u2028\u2029", "</script>", ""];
		for (const delta of texts) {
			for (const type of ["text-delta", "reasoning-delta"] as const) {
				const chunk: UIMessageChunk = { type, id: 'text-1-"0"', delta };
				expect(sseEvent(chunk)).toBe(`data: ${JSON.stringify(chunk)}\n\n`);
			}
		}
		const withMetadata: UIMessageChunk = { type: "text-delta", id: "t", delta: "x", providerMetadata: { pi: { a: 1 } } };
		expect(sseEvent(withMetadata)).toBe(`data: ${JSON.stringify(withMetadata)}\n\n`);
	});
});
