import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { StreamingJsonParser, parseStreamingJson } from "../src/utils/streaming-json.js";

const packageDirectory = fileURLToPath(new URL("..", import.meta.url));

/** Parses in every chunk size and checks the result against JSON.parse, descriptors included. */
function expectSameAsJsonParse(text: string): Record<string, unknown> {
	const expected = JSON.parse(text) as Record<string, unknown>;
	let result: Record<string, unknown> = {};
	for (let size = 1; size <= text.length; size++) {
		result = parseStreamingJson(text, size) as Record<string, unknown>;
		expect(isDeepStrictEqual(result, expected), `chunks of ${size}`).toBe(true);
		// isDeepStrictEqual, not toStrictEqual: vitest's type check reads the own "constructor" key.
		expect(isDeepStrictEqual(Object.getOwnPropertyDescriptors(result), Object.getOwnPropertyDescriptors(expected))).toBe(true);
		expect(Object.getPrototypeOf(result)).toBe(Object.getPrototypeOf(expected));
	}
	return result;
}

function expectPrototypeUntouched(): void {
	expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain("polluted");
	expect(Object.getPrototypeOf({})).toBe(Object.prototype);
}

describe("StreamingJsonParser and prototype keys", () => {
	it('makes "__proto__" an own data property, as JSON.parse does, without touching any prototype', () => {
		const result = expectSameAsJsonParse('{"__proto__": {"polluted": 1}, "a": 2}');
		expect(Object.keys(result)).toStrictEqual(["__proto__", "a"]);
		expect(Object.getOwnPropertyDescriptor(result, "__proto__")?.value).toStrictEqual({ polluted: 1 });
		expect(result.polluted).toBeUndefined();
		expectPrototypeUntouched();
	});

	it('treats "constructor" and "prototype" as plain own keys', () => {
		const result = expectSameAsJsonParse('{"constructor": {"prototype": {"polluted": 1}}, "prototype": {"polluted": 2}}');
		expect(Object.hasOwn(result, "constructor")).toBe(true);
		expect(Object.hasOwn(result, "prototype")).toBe(true);
		expectPrototypeUntouched();
	});

	it('handles "__proto__" nested, inside arrays, with every kind of value, and duplicated', () => {
		for (const text of [
			'{"a": {"b": {"__proto__": {"polluted": true}}}}',
			'[{"__proto__": []}, {"__proto__": null}, {"__proto__": "s"}, {"__proto__": 1}, {"__proto__": false}]',
			'{"__proto__": {"x": 1}, "__proto__": {"polluted": "last"}}',
			'{"toString": "x", "hasOwnProperty": 1, "valueOf": [], "__defineGetter__": null, "isPrototypeOf": {}}',
		]) {
			expectSameAsJsonParse(text);
		}
		expectPrototypeUntouched();
	});

	it("keeps the prototype intact while a __proto__ string value streams in", () => {
		const parser = new StreamingJsonParser();
		for (const chunk of ['{"__proto__": "pol', "lut", 'ed", "__proto__": {"polluted": 1']) {
			parser.push(chunk);
			const partial = parser.value as object;
			expect(Object.getPrototypeOf(partial)).toBe(Object.prototype);
			expect(Object.hasOwn(partial, "__proto__")).toBe(true);
		}
		parser.push("}}");
		expect(parser.finish()).toStrictEqual(JSON.parse('{"__proto__": {"polluted": 1}}'));
		expectPrototypeUntouched();
	});

	it("works when Object.prototype is frozen (hardened runtimes), where plain assignment would throw", () => {
		// Freezing the prototype would break the test runner itself, so this runs in a child process.
		const script = `
			Object.freeze(Object.prototype);
			const { parseStreamingJson } = await import("./src/utils/streaming-json.ts");
			const text = '{"toString": "x", "constructor": 1, "valueOf": "v", "a": {"__proto__": {"b": 2}}}';
			const result = parseStreamingJson(text, 3);
			process.stdout.write(JSON.stringify(result) === JSON.stringify(JSON.parse(text)) ? "same" : "different");
		`;
		const output = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
			cwd: packageDirectory,
			encoding: "utf8",
		});
		expect(output).toBe("same");
	});
});
