import { describe, expect, it } from "vitest";
import { StreamingJsonParser, parseStreamingJson } from "../src/utils/streaming-json.js";

/** Parses `text` cut at every pair of positions, so each escape is split every possible way. */
function expectAllSplitsMatchJsonParse(text: string): void {
	const expected = JSON.parse(text) as unknown;
	for (let first = 0; first <= text.length; first++) {
		for (let second = first; second <= text.length; second++) {
			const parser = new StreamingJsonParser();
			parser.push(text.slice(0, first));
			parser.push(text.slice(first, second));
			parser.push(text.slice(second));
			expect(parser.finish(), `cuts at ${first} and ${second}`).toStrictEqual(expected);
		}
	}
}

describe("StreamingJsonParser strings", () => {
	it("decodes every single-character escape", () => {
		const text = String.raw`"q\" b\\ s\/ \b\f\n\r\t"`;
		expect(parseStreamingJson(text)).toBe('q" b\\ s/ \b\f\n\r\t');
		expectAllSplitsMatchJsonParse(text);
	});

	it("decodes \\u escapes in upper and lower case, wherever the chunks are cut", () => {
		const text = String.raw`{"k\u00E9y":"caf\u00e9 \u0041\u0000\u001f"}`;
		expect(parseStreamingJson(text)).toStrictEqual({ "k\u00e9y": "caf\u00e9 A\u0000\u001f" });
		expectAllSplitsMatchJsonParse(text);
	});

	it("joins a surrogate pair written as two escapes, even split across chunks", () => {
		const text = String.raw`["\ud83d\ude00 ok"]`;
		expect(parseStreamingJson(text)).toStrictEqual(["😀 ok"]);
		expectAllSplitsMatchJsonParse(text);
		for (let size = 1; size <= text.length; size++) expect(parseStreamingJson(text, size)).toStrictEqual(["😀 ok"]);
	});

	it("keeps a raw astral character whose two code units arrive in different chunks", () => {
		const text = '"a😀b𝄞"';
		for (let size = 1; size <= text.length; size++) expect(parseStreamingJson(text, size)).toBe("a😀b𝄞");
	});

	it("accepts lone surrogates, raw or escaped, exactly like JSON.parse", () => {
		for (const text of ['"\ud800"', '"x\udc00y"', String.raw`"\ud800"`, String.raw`"\udc00\ud800"`]) {
			expect(parseStreamingJson(text, 1)).toBe(JSON.parse(text));
		}
	});

	it("reads non-ASCII text and DEL raw, and long strings over many small chunks", () => {
		const long = "héllo wörld 日本語 \u007f ".repeat(500);
		const text = JSON.stringify({ body: long, tail: "end" });
		expect(parseStreamingJson(text, 7)).toStrictEqual({ body: long, tail: "end" });
	});

	it("decodes escapes inside keys", () => {
		expectAllSplitsMatchJsonParse(String.raw`{"a\nb":1,"\"":2}`);
	});

	it("rejects raw control characters, bad escapes and bad hex digits", () => {
		const cases: [string, number][] = [
			['"a\nb"', 2],
			['"\u0000"', 1],
			['"tab\there"', 4],
			[String.raw`"\x"`, 2],
			[String.raw`"\'"`, 2],
			[String.raw`"\u12G4"`, 5],
			[String.raw`"\U0041"`, 2],
		];
		for (const [text, offset] of cases) {
			expect(() => JSON.parse(text)).toThrow();
			for (const size of [undefined, 1, 2]) {
				expect(() => parseStreamingJson(text, size)).toThrow(expect.objectContaining({ offset }));
			}
		}
	});

	it("reports an unterminated string or escape at the end of input", () => {
		for (const text of ['"abc', '"abc\\"', '"\\u00', '{"a":"\\']) {
			expect(() => parseStreamingJson(text)).toThrow(`Unexpected end of JSON input at offset ${text.length}: unterminated string`);
		}
	});
});
