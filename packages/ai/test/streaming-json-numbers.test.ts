import { describe, expect, it } from "vitest";
import { StreamingJsonParser, parseStreamingJson } from "../src/utils/streaming-json.js";

const VALID = [
	"0",
	"-0",
	"7",
	"-12",
	"10",
	"1.5",
	"-0.0",
	"0.0001",
	"1e5",
	"1E+5",
	"2e-5",
	"-0.0e-0",
	"1.7976931348623157e308",
	"1e400",
	"-1e400",
	"5e-324",
	"1e-400",
	"123456789012345678901234567890",
	"0.1000000000000000055511151231257827",
];

/** [input, offset of the reported error]. The offset is where JSON stops being valid. */
const INVALID: [string, number][] = [
	["01", 1],
	["-01", 2],
	["00", 1],
	["1.", 2],
	[".5", 0],
	["-", 1],
	["+1", 0],
	["1e", 2],
	["1e+", 3],
	["1.e5", 2],
	["--1", 1],
	["0x10", 1],
	["Infinity", 0],
	["-Infinity", 1],
	["NaN", 0],
	["1.5.5", 3],
	["1e5e5", 3],
	["1 2", 2],
	["1-2", 1],
	["1+2", 1],
	["[1.5-2]", 4],
	["1e5+1", 3],
	["-a", 1],
	["[1.]", 3],
	["[-]", 2],
	["[01]", 2],
	['{"n":2.}', 7],
];

describe("StreamingJsonParser numbers", () => {
	it("returns exactly what JSON.parse returns, whatever the chunk size", () => {
		for (const text of VALID) {
			const expected = JSON.parse(text) as number;
			for (const size of [undefined, 1, 2, 3]) {
				expect(Object.is(parseStreamingJson(text, size), expected), `${text} in chunks of ${size}`).toBe(true);
			}
			expect(parseStreamingJson(`[${text},${text}]`, 1)).toStrictEqual([expected, expected]);
			expect(parseStreamingJson(`{"n": ${text} }`, 2)).toStrictEqual({ n: expected });
		}
	});

	it("rejects what the JSON number grammar rejects, at the offending offset, whatever the chunking", () => {
		for (const [text, offset] of INVALID) {
			expect(() => JSON.parse(text), text).toThrow();
			for (const size of [undefined, 1, 2]) {
				expect(() => parseStreamingJson(text, size), `${text} in chunks of ${size}`).toThrow(expect.objectContaining({ offset }));
			}
		}
	});

	it("names the problem: a leading zero, a missing digit, or an incomplete number at the end", () => {
		expect(() => parseStreamingJson("[01]")).toThrow('Unexpected "1" at offset 2 in JSON: leading zeros are not allowed');
		expect(() => parseStreamingJson("[1.]")).toThrow('Unexpected "]" at offset 3 in JSON: expected a digit');
		expect(() => parseStreamingJson("1e")).toThrow("Unexpected end of JSON input at offset 2: incomplete number");
	});

	it("shows a number in the partial value only once a delimiter proves it complete", () => {
		const parser = new StreamingJsonParser();
		parser.push('{"a": [1');
		expect(parser.value).toStrictEqual({ a: [] });
		parser.push("2");
		expect(parser.value).toStrictEqual({ a: [] });
		parser.push(".5");
		expect(parser.value).toStrictEqual({ a: [] });
		parser.push("e1, -3");
		expect(parser.value).toStrictEqual({ a: [125] });
		parser.push("]");
		expect(parser.value).toStrictEqual({ a: [125, -3] });
		parser.push(', "b": 0 }');
		expect(parser.finish()).toStrictEqual({ a: [125, -3], b: 0 });
	});

	it("completes a top-level number at finish()", () => {
		const parser = new StreamingJsonParser();
		parser.push(" 4");
		parser.push("2");
		expect(parser.value).toBeUndefined();
		expect(parser.finish()).toBe(42);
		expect(parser.value).toBe(42);
	});
});
