import { describe, expect, it } from "vitest";
import { StreamingJsonError, StreamingJsonParser, parseStreamingJson } from "../src/utils/streaming-json.js";

/** [input, exact message]. Each message names the character, its offset and what was expected. */
const SYNTAX_ERRORS: [string, string][] = [
	['{"a": 1, "b": }', 'Unexpected "}" at offset 14 in JSON: expected a value'],
	['{"a": 1,}', 'Unexpected "}" at offset 8 in JSON: expected a string key'],
	["[1,]", 'Unexpected "]" at offset 3 in JSON: expected a value'],
	["[1 2]", 'Unexpected "2" at offset 3 in JSON: expected "," or "]"'],
	['{"a" 1}', 'Unexpected "1" at offset 5 in JSON: expected ":" after the key'],
	['{"a":1 "b":2}', 'Unexpected "\\"" at offset 7 in JSON: expected "," or "}"'],
	["{a:1}", 'Unexpected "a" at offset 1 in JSON: expected a string key or "}"'],
	["['a']", "Unexpected \"'\" at offset 1 in JSON: expected a value or \"]\""],
	['{"a":1}}', 'Unexpected "}" at offset 7 in JSON: expected the end of input after the JSON value'],
	["[1] // note", 'Unexpected "/" at offset 4 in JSON: expected the end of input after the JSON value'],
	["\ufeff{}", 'Unexpected "\ufeff" at offset 0 in JSON: expected a value'],
	["[tru]", 'Unexpected "]" at offset 4 in JSON: expected "true"'],
	["nul1", 'Unexpected "1" at offset 3 in JSON: expected "null"'],
	['["x",\u00a01]', 'Unexpected "\u00a0" at offset 5 in JSON: expected a value'],
	// One UTF-16 code unit is quoted, so the message does not depend on where a surrogate pair was cut.
	['{"a":1}😀', 'Unexpected "\\ud83d" at offset 7 in JSON: expected the end of input after the JSON value'],
];

/** [input, exact message] for input that stops too early. */
const END_ERRORS: [string, string][] = [
	["", "Unexpected end of JSON input at offset 0: expected a value"],
	[" \n\t\r ", "Unexpected end of JSON input at offset 5: expected a value"],
	["[", 'Unexpected end of JSON input at offset 1: expected a value or "]"'],
	['{"a":[1', 'Unexpected end of JSON input at offset 7: expected "," or "]"'],
	['{"a":1', 'Unexpected end of JSON input at offset 6: expected "," or "}"'],
	['{"a"', 'Unexpected end of JSON input at offset 4: expected ":" after the key'],
	['{"a":', "Unexpected end of JSON input at offset 5: expected a value"],
	['{"a":1,', "Unexpected end of JSON input at offset 7: expected a string key"],
	["{", 'Unexpected end of JSON input at offset 1: expected a string key or "}"'],
	["fals", 'Unexpected end of JSON input at offset 4: expected "false"'],
	['"open', "Unexpected end of JSON input at offset 5: unterminated string"],
	["-", "Unexpected end of JSON input at offset 1: incomplete number"],
];

describe("StreamingJsonParser errors", () => {
	it("names the unexpected character, its offset and what was expected", () => {
		for (const [text, message] of SYNTAX_ERRORS) {
			expect(() => JSON.parse(text), text).toThrow();
			expect(() => parseStreamingJson(text), text).toThrow(message);
		}
	});

	it("reports the same offset and message however the input is chunked", () => {
		for (const [text, message] of [...SYNTAX_ERRORS, ...END_ERRORS]) {
			for (let size = 1; size <= Math.max(1, text.length); size++) {
				expect(() => parseStreamingJson(text, size), `${JSON.stringify(text)} in chunks of ${size}`).toThrow(message);
			}
		}
	});

	it("reports input that ends too early, including empty and whitespace-only input", () => {
		for (const [text, message] of END_ERRORS) {
			expect(() => JSON.parse(text), text).toThrow();
			expect(() => parseStreamingJson(text), JSON.stringify(text)).toThrow(message);
		}
	});

	it("throws a StreamingJsonError carrying the offset", () => {
		let caught: unknown;
		try {
			parseStreamingJson('{"a": 1, "b": }');
		} catch (error) {
			caught = error;
		}
		expect(caught).toBeInstanceOf(StreamingJsonError);
		expect(caught).toBeInstanceOf(Error);
		expect((caught as StreamingJsonError).name).toBe("StreamingJsonError");
		expect((caught as StreamingJsonError).offset).toBe(14);
	});

	it("never throws from push on bad input, ignores later chunks, and throws from finish every time", () => {
		const parser = new StreamingJsonParser();
		expect(() => {
			parser.push('{"a": [1, 2');
			parser.push("}");
			parser.push(' and then anything "');
		}).not.toThrow();
		expect(parser.value).toStrictEqual({ a: [1, 2] });
		expect(() => parser.finish()).toThrow('Unexpected "}" at offset 11 in JSON: expected "," or "]"');
		expect(() => parser.finish()).toThrow('Unexpected "}" at offset 11 in JSON: expected "," or "]"');
	});

	it("refuses push after finish, and repeats the result of finish", () => {
		const parser = new StreamingJsonParser();
		parser.push("[1]");
		const result = parser.finish();
		expect(parser.finish()).toBe(result);
		expect(() => parser.push("2")).toThrow("StreamingJsonParser.push() called after finish()");
	});

	it("rejects a chunk size that is not a positive integer", () => {
		for (const size of [0, -1, 1.5, Number.NaN]) expect(() => parseStreamingJson("[]", size)).toThrow(RangeError);
	});
});
