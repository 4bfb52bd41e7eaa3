import { describe, expect, it } from "vitest";
import { StructuredOutputReader } from "../../src/structured-output/output-reader.js";
import { grows } from "./helpers.js";

/** The streamed text of a reply → partial and final values, cut every possible way. */

const TEXT = '{"title":"A \\"quoted\\" name","tags":["x","yz"],"n":-1.5e2,"ok":true,"none":null}';

function read(pieces: string[]) {
	const reader = new StructuredOutputReader();
	const partials: unknown[] = [];
	for (const piece of pieces) {
		reader.push(piece);
		partials.push(structuredClone(reader.partial));
	}
	return { partials, result: reader.finish() };
}

describe("StructuredOutputReader", () => {
	it("gives JSON.parse's value for every cut of the text into two pieces, and partials that only grow", () => {
		for (let cut = 0; cut <= TEXT.length; cut++) {
			const { partials, result } = read([TEXT.slice(0, cut), TEXT.slice(cut)]);
			expect(result).toEqual({ ok: true, value: JSON.parse(TEXT) });
			expect(grows(partials[0], partials[1])).toBe(true);
		}
	});

	it("reads one character at a time", () => {
		const { partials, result } = read([...TEXT]);
		expect(result).toEqual({ ok: true, value: JSON.parse(TEXT) });
		for (let i = 1; i < partials.length; i++) expect(grows(partials[i - 1], partials[i])).toBe(true);
	});

	it("values one after another: the last one, whatever the cut; the partial keeps the last complete one meanwhile", () => {
		const text = '{"a":1}\n{"a":2,"b":[3]}';
		for (let cut = 0; cut <= text.length; cut++) {
			const { partials, result } = read([text.slice(0, cut), text.slice(cut)]);
			expect(result).toEqual({ ok: true, value: { a: 2, b: [3] } });
			if (cut > 7 && cut < text.length) expect(partials[0]).toEqual({ a: 1 });
		}
		// Three values in one piece.
		expect(read(['{"a":1}{"a":2} {"a":3}']).result).toEqual({ ok: true, value: { a: 3 } });
	});

	it("text that is not JSON: the parser's message with its offset", () => {
		expect(read(['{"a":1,}']).result).toEqual({ ok: false, error: 'Unexpected "}" at offset 7 in JSON: expected a string key' });
		expect(read(['{"a":"cut sh']).result).toEqual({ ok: false, error: "Unexpected end of JSON input at offset 12: unterminated string" });
		expect(read([""]).result).toEqual({ ok: false, error: "Unexpected end of JSON input at offset 0: expected a value" });
		// A second value cut short fails too: the reply did not end cleanly.
		expect(read(['{"a":1} {"a":']).result.ok).toBe(false);
	});

	it("never read while streaming: the same values and the same messages at the end", () => {
		const finishOnly = (pieces: string[]) => {
			const reader = new StructuredOutputReader();
			for (const piece of pieces) reader.push(piece);
			return reader.finish();
		};
		for (let cut = 0; cut <= TEXT.length; cut += 7) {
			expect(finishOnly([TEXT.slice(0, cut), TEXT.slice(cut)])).toEqual({ ok: true, value: JSON.parse(TEXT) });
		}
		expect(finishOnly(['{"a":1}\n', '{"a":2}'])).toEqual({ ok: true, value: { a: 2 } });
		expect(finishOnly(['{"a":1,', "}"])).toEqual({ ok: false, error: 'Unexpected "}" at offset 7 in JSON: expected a string key' });
		expect(finishOnly([])).toEqual({ ok: false, error: "Unexpected end of JSON input at offset 0: expected a value" });
	});

	it("read now and then: each read parses only what arrived since the last one", () => {
		const reader = new StructuredOutputReader();
		reader.push('{"a":"x');
		expect(reader.partial).toEqual({ a: "x" });
		reader.push("y");
		reader.push('z","b":[1,');
		expect(reader.partial).toEqual({ a: "xyz", b: [1] });
		reader.push("2]}");
		expect(reader.finish()).toEqual({ ok: true, value: { a: "xyz", b: [1, 2] } });
	});

	it("reset forgets what was read (text before a tool call)", () => {
		const reader = new StructuredOutputReader();
		reader.push("Let me look that up.");
		reader.reset();
		expect(reader.partial).toBeUndefined();
		reader.push('{"a":1}');
		expect(reader.finish()).toEqual({ ok: true, value: { a: 1 } });
	});
});
