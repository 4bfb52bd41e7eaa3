import { describe, expect, it } from "vitest";
import { StreamingJsonParser } from "../src/utils/streaming-json.js";

/** Pushes the chunks one by one and records a JSON snapshot of `value` after each. */
function snapshots(chunks: string[]): unknown[] {
	const parser = new StreamingJsonParser();
	return chunks.map((chunk) => {
		parser.push(chunk);
		return parser.value === undefined ? undefined : (JSON.parse(JSON.stringify(parser.value)) as unknown);
	});
}

describe("StreamingJsonParser partial value", () => {
	it("is undefined before a value starts", () => {
		const parser = new StreamingJsonParser();
		expect(parser.value).toBeUndefined();
		parser.push(" \n\t");
		expect(parser.value).toBeUndefined();
		parser.push("[");
		expect(parser.value).toStrictEqual([]);
	});

	it("sets an object key only once its value has started", () => {
		expect(snapshots(['{"a"', ":", " ", '"', "x", '", "b": t', "ru", "e", ', "c": {', '"d": [', "]}}"])).toStrictEqual([
			{},
			{},
			{},
			{ a: "" },
			{ a: "x" },
			{ a: "x" },
			{ a: "x" },
			{ a: "x", b: true },
			{ a: "x", b: true, c: {} },
			{ a: "x", b: true, c: { d: [] } },
			{ a: "x", b: true, c: { d: [] } },
		]);
	});

	it("shows the decoded prefix of an open string, holding back an escape until it is complete", () => {
		expect(snapshots(['["ab', "\\", "n", "c\\u00", "e9", '", "', "z"])).toStrictEqual([
			["ab"],
			["ab"],
			["ab\n"],
			["ab\nc"],
			["ab\ncé"],
			["ab\ncé", ""],
			["ab\ncé", "z"],
		]);
	});

	it("shows a top-level string as it grows", () => {
		const parser = new StreamingJsonParser();
		parser.push(' "hel');
		expect(parser.value).toBe("hel");
		parser.push('lo"');
		expect(parser.value).toBe("hello");
		expect(parser.finish()).toBe("hello");
	});

	it("leaves a literal out until it is spelled out", () => {
		expect(snapshots(['{"x": n', "ul", "l", ', "y": [fa', "lse"])).toStrictEqual([{}, {}, { x: null }, { x: null, y: [] }, { x: null, y: [false] }]);
	});

	it("keeps the same object and array instances from the first push to finish()", () => {
		const parser = new StreamingJsonParser();
		parser.push('{"list": [');
		const root = parser.value as { list: unknown[]; meta?: { tags: string[] } };
		const list = root.list;
		parser.push('1, {"k": "v');
		expect(parser.value).toBe(root);
		const element = root.list[1];
		parser.push('"}], "meta": {"tags": ["a"');
		expect(parser.value).toBe(root);
		const meta = root.meta;
		parser.push(', "b"]}}');
		const result = parser.finish() as typeof root;
		expect(result).toBe(root);
		expect(result.list).toBe(list);
		expect(result.list[1]).toBe(element);
		expect(result.meta).toBe(meta);
		expect(result).toStrictEqual({ list: [1, { k: "v" }], meta: { tags: ["a", "b"] } });
	});
});
