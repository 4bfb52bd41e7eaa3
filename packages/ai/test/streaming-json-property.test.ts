import fc from "fast-check";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { StreamingJsonError, StreamingJsonParser } from "../src/utils/streaming-json.js";

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

function viaJsonParse(text: string): Outcome {
	try {
		return { ok: true, value: JSON.parse(text) as unknown };
	} catch (error) {
		return { ok: false, error };
	}
}

/** Cuts `text` at the given positions (taken modulo its length) and parses the pieces. */
function viaParser(text: string, cuts: number[]): Outcome {
	const parser = new StreamingJsonParser();
	const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
	let start = 0;
	for (const point of points) {
		parser.push(text.slice(start, point));
		start = point;
	}
	parser.push(text.slice(start));
	try {
		return { ok: true, value: parser.finish() };
	} catch (error) {
		return { ok: false, error };
	}
}

function expectSameOutcome(text: string, cuts: number[]): void {
	const expected = viaJsonParse(text);
	const actual = viaParser(text, cuts);
	if (expected.ok && actual.ok) {
		expect(isDeepStrictEqual(actual.value, expected.value), `value for ${JSON.stringify(text)}`).toBe(true);
	} else {
		expect(actual.ok, `outcome for ${JSON.stringify(text)}: ${actual.ok ? "returned" : String(actual.error)}`).toBe(expected.ok);
		if (!actual.ok) expect(actual.error).toBeInstanceOf(StreamingJsonError);
	}
}

/**
 * Checks that a partial value is consistent with the final one: strings are prefixes, every other
 * leaf is final, arrays and objects only miss their tail, and at most one member per container (the
 * one on the open path) is still incomplete.
 */
function expectConsistentPrefix(partial: unknown, final: unknown, path: string): void {
	// Only the root may be missing (nothing started, or a top-level number not yet delimited); a
	// member appears only once its value has started.
	if (partial === undefined && path === "$") return;
	if (typeof partial === "string") {
		expect(typeof final, path).toBe("string");
		expect((final as string).startsWith(partial), `${path}: ${JSON.stringify(partial)} is a prefix`).toBe(true);
	} else if (Array.isArray(partial)) {
		expect(Array.isArray(final), path).toBe(true);
		const finalArray = final as unknown[];
		expect(partial.length, path).toBeLessThanOrEqual(finalArray.length);
		partial.forEach((element, index) => {
			if (index < partial.length - 1) expect(isDeepStrictEqual(element, finalArray[index]), `${path}[${index}]`).toBe(true);
			else expectConsistentPrefix(element, finalArray[index], `${path}[${index}]`);
		});
	} else if (typeof partial === "object" && partial !== null) {
		expect(typeof final === "object" && final !== null && !Array.isArray(final), path).toBe(true);
		const finalObject = final as Record<string, unknown>;
		const partialObject = partial as Record<string, unknown>;
		const keys = Object.keys(partialObject);
		expect(keys, `${path} key order`).toStrictEqual(Object.keys(finalObject).filter((key) => Object.hasOwn(partialObject, key)));
		let incomplete = 0;
		for (const key of keys) {
			const member = Object.getOwnPropertyDescriptor(partialObject, key)?.value as unknown;
			const finalMember = Object.getOwnPropertyDescriptor(finalObject, key)?.value as unknown;
			if (!isDeepStrictEqual(member, finalMember)) incomplete++;
			expectConsistentPrefix(member, finalMember, `${path}.${key}`);
		}
		expect(incomplete, `${path}: members still incomplete`).toBeLessThanOrEqual(1);
	} else {
		expect(Object.is(partial, final), `${path}: ${String(partial)} is final`).toBe(true);
	}
}

/** Serializes with arbitrary JSON whitespace between tokens, cycling through `pads`. */
function layout(value: unknown, pads: string[]): string {
	let turn = 0;
	const pad = () => pads[turn++ % pads.length] ?? "";
	const write = (node: unknown): string => {
		if (Array.isArray(node)) return `[${pad()}${node.map((element) => `${write(element)}${pad()}`).join(`,${pad()}`)}]`;
		if (typeof node === "object" && node !== null) {
			const members = Object.entries(node).map(([key, member]) => `${JSON.stringify(key)}${pad()}:${pad()}${write(member)}${pad()}`);
			return `{${pad()}${members.join(`,${pad()}`)}}`;
		}
		return JSON.stringify(node);
	};
	return `${pad()}${write(value)}${pad()}`;
}

/** Quotes a string escaping only what JSON requires, so raw lone surrogates and astral chars stay raw. */
function quoteRaw(text: string): string {
	let out = '"';
	for (const char of text) {
		const code = char.charCodeAt(0);
		if (char === '"' || char === "\\") out += `\\${char}`;
		else if (code < 0x20) out += `\\u${code.toString(16).padStart(4, "0")}`;
		else out += char;
	}
	return `${out}"`;
}

const cuts = fc.array(fc.nat(), { maxLength: 12 });
const whitespace = fc.array(fc.stringMatching(/^[ \t\n\r]{0,3}$/), { minLength: 1, maxLength: 8 });
const anyJson = fc.jsonValue({ stringUnit: "binary", maxDepth: 5 });
const jsonTokens = fc.constantFrom(..."{}[]\":,.-+eE0123456789tfnrul\\/ \t\n\r\u0000\u001fxu".split(""), "true", "false", "null", "\\u", "\ud83d");

describe("StreamingJsonParser properties", () => {
	it("agrees with JSON.parse for any JSON value, any indentation, cut anywhere", () => {
		fc.assert(
			fc.property(anyJson, fc.constantFrom(0, 1, 2, 4, "\t"), cuts, (value, indent, cutPoints) => {
				expectSameOutcome(JSON.stringify(value, null, indent), cutPoints);
			}),
			{ numRuns: 400 },
		);
	});

	it("agrees with JSON.parse on fc.json() text with random whitespace between tokens", () => {
		fc.assert(
			fc.property(fc.json({ maxDepth: 4 }), whitespace, cuts, (text, pads, cutPoints) => {
				expectSameOutcome(text, cutPoints);
				expectSameOutcome(layout(JSON.parse(text), pads), cutPoints);
			}),
			{ numRuns: 300 },
		);
	});

	it("agrees with JSON.parse on any unicode string, raw or escaped, including lone surrogates", () => {
		const anyCodeUnits = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), maxLength: 40 });
		fc.assert(
			fc.property(fc.oneof(fc.string({ unit: "binary" }), anyCodeUnits), cuts, (text, cutPoints) => {
				expectSameOutcome(JSON.stringify(text), cutPoints);
				expectSameOutcome(quoteRaw(text), cutPoints);
				expectSameOutcome(`{${quoteRaw(text)}:${JSON.stringify(text)}}`, cutPoints);
			}),
			{ numRuns: 400 },
		);
	});

	it("gives every prefix a consistent partial value, and fails a prefix only for ending early", () => {
		fc.assert(
			fc.property(anyJson, fc.constantFrom(0, 2), cuts, (value, indent, cutPoints) => {
				const text = JSON.stringify(value, null, indent);
				const final = JSON.parse(text) as unknown;
				const parser = new StreamingJsonParser();
				const points = [...new Set(cutPoints.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
				let start = 0;
				for (const point of [...points, text.length]) {
					parser.push(text.slice(start, point));
					start = point;
					expectConsistentPrefix(parser.value, final, "$");

					// A fresh parser on the prefix: it may only complain that the input ended.
					const prefix = text.slice(0, point);
					const outcome = viaParser(prefix, []);
					if (outcome.ok) {
						expect(isDeepStrictEqual(outcome.value, JSON.parse(prefix)), `prefix ${JSON.stringify(prefix)}`).toBe(true);
					} else {
						const error = outcome.error as StreamingJsonError;
						expect(error.message, `prefix ${JSON.stringify(prefix)}`).toMatch(/^Unexpected end of JSON input/);
						expect(error.offset).toBe(prefix.length);
					}
				}
				expect(isDeepStrictEqual(parser.finish(), final)).toBe(true);
			}),
			{ numRuns: 300 },
		);
	});

	it("throws iff JSON.parse throws, on mutated JSON and on token soup", () => {
		const mutated = fc
			.tuple(fc.json({ maxDepth: 3 }), fc.array(fc.tuple(fc.nat(), fc.nat({ max: 2 }), jsonTokens), { minLength: 1, maxLength: 3 }))
			.map(([text, edits]) => {
				let out = text;
				for (const [position, kind, token] of edits) {
					const at = position % (out.length + 1);
					// 0 inserts, 1 deletes one code unit, 2 replaces one code unit.
					out = out.slice(0, at) + (kind === 1 ? "" : token) + out.slice(kind === 0 ? at : at + 1);
				}
				return out;
			});
		const soup = fc.array(jsonTokens, { maxLength: 16 }).map((tokens) => tokens.join(""));
		fc.assert(
			fc.property(fc.oneof(mutated, soup), cuts, (text, cutPoints) => {
				expectSameOutcome(text, cutPoints);
			}),
			{ numRuns: 2000 },
		);
	});

	it("reports the same error wherever the input is cut", () => {
		fc.assert(
			fc.property(fc.array(jsonTokens, { maxLength: 16 }), cuts, (tokens, cutPoints) => {
				const text = tokens.join("");
				const whole = viaParser(text, []);
				const chunked = viaParser(text, cutPoints);
				expect(chunked.ok).toBe(whole.ok);
				if (!whole.ok && !chunked.ok) {
					expect((chunked.error as StreamingJsonError).message).toBe((whole.error as StreamingJsonError).message);
					expect((chunked.error as StreamingJsonError).offset).toBe((whole.error as StreamingJsonError).offset);
				}
			}),
			{ numRuns: 1000 },
		);
	});

	it("builds own properties for prototype-named keys, duplicates included, exactly like JSON.parse", () => {
		const key = fc.constantFrom("__proto__", "constructor", "prototype", "toString", "polluted", "0", "a");
		const member = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant({ polluted: true }));
		fc.assert(
			fc.property(fc.array(fc.tuple(key, member), { maxLength: 6 }), cuts, (entries, cutPoints) => {
				const text = `{${entries.map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`).join(",")}}`;
				expectSameOutcome(text, cutPoints);
				const result = viaParser(text, cutPoints);
				expect(result.ok && Object.getPrototypeOf(result.value)).toBe(Object.prototype);
				expect(({} as Record<string, unknown>).polluted).toBeUndefined();
			}),
			{ numRuns: 500 },
		);
	});
});
