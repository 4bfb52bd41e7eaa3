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

describe("sseByteStream", () => {
	it("joins the deltas of one part that come in one event-loop turn, keeps every other chunk and the order, and ends with [DONE]", async () => {
		const { sseByteStream } = await import("../src/ui-message-sse.js");
		const body = sseByteStream(async (send) => {
			send({ type: "start" });
			send({ type: "text-start", id: "t" });
			for (const delta of ["Hel", "lo", ", ", "world"]) send({ type: "text-delta", id: "t", delta });
			send({ type: "reasoning-delta", id: "r", delta: "a" });
			send({ type: "reasoning-delta", id: "r", delta: "b" });
			send({ type: "text-delta", id: "t", delta: "!" });
			await new Promise((resolve) => setTimeout(resolve, 20));
			send({ type: "text-delta", id: "t", delta: " Later." });
			send({ type: "finish" });
		}, () => {});
		const events: string[] = [];
		const batches: number[] = [];
		const reader = body.getReader();
		for (;;) {
			const { done, value } = await reader.read();
			if (done) break;
			const text = new TextDecoder().decode(value);
			const inBatch = text.split("\n\n").filter(Boolean);
			batches.push(inBatch.length);
			events.push(...inBatch);
		}
		expect(events).toEqual([
			'data: {"type":"start"}',
			'data: {"type":"text-start","id":"t"}',
			'data: {"type":"text-delta","id":"t","delta":"Hello, world"}',
			'data: {"type":"reasoning-delta","id":"r","delta":"ab"}',
			'data: {"type":"text-delta","id":"t","delta":"!"}',
			'data: {"type":"text-delta","id":"t","delta":" Later."}',
			'data: {"type":"finish"}',
			"data: [DONE]",
		]);
		// Two turns of the event loop: two writes.
		expect(batches).toEqual([5, 3]);
	});

	it("aborts through its cancel", async () => {
		const { sseByteStream } = await import("../src/ui-message-sse.js");
		let aborted = false;
		const body = sseByteStream(() => new Promise<void>(() => {}), () => {
			aborted = true;
		});
		await body.cancel();
		expect(aborted).toBe(true);
	});
});
