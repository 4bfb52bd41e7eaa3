import { Buffer } from "node:buffer";
import { describe, expect, it } from "vitest";
import { loadFixture, splitIntoChunks } from "../../src/testing/index.js";

const gemini = loadFixture("google-generative-ai", "thinking-thought-summaries"); // CRLF framing
const utf8 = loadFixture("openai-responses", "text-then-function-call-phase"); // holds ’ and “ ”

function cutPositions(chunks: Uint8Array[]): number[] {
	const cuts: number[] = [];
	let position = 0;
	for (const chunk of chunks.slice(0, -1)) cuts.push((position += chunk.length));
	return cuts;
}

describe("splitIntoChunks", () => {
	it("reassembles to the exact input, with every chunk within the size bounds", () => {
		for (const seed of [1, 2, 3, 99]) {
			const chunks = splitIntoChunks(gemini, { seed, minChunkBytes: 3, maxChunkBytes: 40 });
			expect(Buffer.concat(chunks).equals(gemini)).toBe(true);
			const sizes = chunks.slice(0, -1).map((chunk) => chunk.length);
			expect(Math.min(...sizes)).toBeGreaterThanOrEqual(3);
			expect(Math.max(...sizes)).toBeLessThanOrEqual(40);
		}
	});

	it("is deterministic per seed and differs between seeds", () => {
		expect(cutPositions(splitIntoChunks(utf8, { seed: 5 }))).toEqual(cutPositions(splitIntoChunks(utf8, { seed: 5 })));
		expect(cutPositions(splitIntoChunks(utf8, { seed: 5 }))).not.toEqual(cutPositions(splitIntoChunks(utf8, { seed: 6 })));
	});

	it("splits CRLF pairs on purpose", () => {
		const cuts = cutPositions(splitIntoChunks(gemini, { seed: 1 }));
		const crlfSplits = cuts.filter((cut) => gemini[cut - 1] === 0x0d && gemini[cut] === 0x0a);
		expect(crlfSplits.length).toBeGreaterThan(3);
	});

	it("splits multi-byte UTF-8 characters on purpose", () => {
		for (const seed of [1, 2, 3]) {
			const cuts = cutPositions(splitIntoChunks(utf8, { seed }));
			const inside = cuts.filter((cut) => ((utf8[cut] as number) & 0xc0) === 0x80);
			expect(inside.length).toBeGreaterThan(0);
		}
	});

	it("keeps awkward cuts rare with awkwardCutRate 0 and random sizes only", () => {
		const cuts = cutPositions(splitIntoChunks(gemini, { seed: 1, awkwardCutRate: 0 }));
		const awkward = cuts.filter((cut) => gemini[cut - 1] === 0x0d && gemini[cut] === 0x0a);
		const withRate = cutPositions(splitIntoChunks(gemini, { seed: 1 })).filter((cut) => gemini[cut - 1] === 0x0d && gemini[cut] === 0x0a);
		expect(withRate.length).toBeGreaterThan(awkward.length);
	});

	it("returns views, not copies, and nothing for an empty input", () => {
		const chunks = splitIntoChunks(utf8, { seed: 1 });
		expect(chunks[0]?.buffer).toBe(utf8.buffer);
		expect(splitIntoChunks(new Uint8Array(0))).toEqual([]);
	});

	it("rejects impossible sizes loudly", () => {
		expect(() => splitIntoChunks(utf8, { minChunkBytes: 0 })).toThrow(RangeError);
		expect(() => splitIntoChunks(utf8, { minChunkBytes: 5, maxChunkBytes: 4 })).toThrow(/maxChunkBytes must be an integer ≥ minChunkBytes \(5\)/);
		expect(() => splitIntoChunks(utf8, { awkwardCutRate: 2 })).toThrow(RangeError);
	});
});
