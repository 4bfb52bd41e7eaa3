import { describe, expect, it } from "vitest";
import { StreamingJsonParser, parseStreamingJson } from "../src/utils/streaming-json.js";

function expectEveryChunkSizeMatchesJsonParse(text: string): void {
	const expected = JSON.parse(text) as unknown;
	for (let size = 1; size <= text.length; size++) expect(parseStreamingJson(text, size), `chunks of ${size}`).toStrictEqual(expected);
	expect(parseStreamingJson(text)).toStrictEqual(expected);
}

describe("StreamingJsonParser structure", () => {
	it("parses literals split at any point", () => {
		expectEveryChunkSizeMatchesJsonParse("[true,false,null]");
		expect(parseStreamingJson("true", 1)).toBe(true);
		expect(parseStreamingJson("false", 2)).toBe(false);
		expect(parseStreamingJson("null", 3)).toBeNull();
	});

	it("parses nested and empty containers", () => {
		expectEveryChunkSizeMatchesJsonParse('{"a":[],"b":{},"c":[[],[{}],{"d":[1,{"e":null}]}],"f":""}');
		expectEveryChunkSizeMatchesJsonParse("[[[[]]],[{}]]");
	});

	it("allows the four JSON whitespace characters around every token", () => {
		const text = ' \t\n\r{ \n"a" \t: \r[ 1 ,\n2\t] ,"b":\ttrue\n}\r\n ';
		expectEveryChunkSizeMatchesJsonParse(text);
		expectEveryChunkSizeMatchesJsonParse(JSON.stringify({ a: [1, { b: "c" }], d: null }, null, "\t"));
	});

	it("keeps JSON.parse key order, including integer-like keys", () => {
		const text = '{"b":1,"10":2,"a":3,"2":4,"-1":5,"01":6}';
		const result = parseStreamingJson(text, 3) as Record<string, number>;
		expect(Object.keys(result)).toStrictEqual(Object.keys(JSON.parse(text) as object));
	});

	it("lets the last duplicate key win, in the position of the first, like JSON.parse", () => {
		const text = '{"a":1,"b":2,"a":{"x":[3]},"b":"last"}';
		const result = parseStreamingJson(text, 4);
		expect(result).toStrictEqual(JSON.parse(text));
		expect(Object.keys(result as object)).toStrictEqual(["a", "b"]);
	});

	it("parses very deep nesting without recursion when maxDepth allows it", () => {
		const depth = 50_000;
		const text = '{"k":['.repeat(depth) + "0" + "]}".repeat(depth);
		let node = parseStreamingJson(text, 1000, { maxDepth: Number.POSITIVE_INFINITY }) as { k: unknown[] } | number;
		let levels = 0;
		while (typeof node === "object") {
			node = node.k[0] as { k: unknown[] } | number;
			levels++;
		}
		expect(levels).toBe(depth);
		expect(node).toBe(0);
	});

	it("refuses nesting deeper than maxDepth (default 256), naming the bound and the offset, whatever the chunking", () => {
		const deep = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;
		expect(parseStreamingJson(deep(256))).toStrictEqual(JSON.parse(deep(256)));
		for (const size of [1, 7, 1000]) {
			expect(() => parseStreamingJson(deep(100_000), size)).toThrow('Unexpected "[" at offset 256 in JSON: nesting deeper than 256 levels (maxDepth)');
		}
		expect(() => parseStreamingJson('{"a":{"b":[1]}}', undefined, { maxDepth: 2 })).toThrow("at offset 10 in JSON: nesting deeper than 2 levels (maxDepth)");
		// The partial value stops at the bound, so whatever meets it later can still walk it.
		const parser = new StreamingJsonParser();
		parser.push(deep(100_000));
		expect(() => JSON.stringify(parser.value)).not.toThrow();
	});

	it("accepts a top-level scalar of any kind", () => {
		for (const text of ['"s"', "3", "true", "null", ' "padded" ']) expect(parseStreamingJson(text, 1)).toStrictEqual(JSON.parse(text));
	});

	it("accepts empty chunks anywhere", () => {
		const parser = new StreamingJsonParser();
		for (const chunk of ["", '{"a"', "", ":", "", '"x"', "", "}", ""]) parser.push(chunk);
		expect(parser.finish()).toStrictEqual({ a: "x" });
	});
});
