/** Assembling Vertex AI streamed function-call arguments (`partialArgs`) by JSONPath. */
import { describe, expect, it } from "vitest";
import { applyPartialArg, parseJsonPath } from "../../../src/providers/google-generative-ai/partial-args.js";

describe("applyPartialArg", () => {
	it("concatenates string pieces at one path, the empty last piece included", () => {
		const args: Record<string, unknown> = {};
		applyPartialArg(args, { jsonPath: "$.location", stringValue: "San ", willContinue: true });
		applyPartialArg(args, { jsonPath: "$.location", stringValue: "Francisco", willContinue: true });
		applyPartialArg(args, { jsonPath: "$.location", stringValue: "" });
		expect(args).toEqual({ location: "San Francisco" });
	});

	it("sets numbers, booleans and null, creating objects and arrays on the way", () => {
		const args: Record<string, unknown> = {};
		applyPartialArg(args, { jsonPath: "$.a.b", numberValue: 1.5 });
		applyPartialArg(args, { jsonPath: "$.list[1]", boolValue: true });
		applyPartialArg(args, { jsonPath: "$.list[0].x", nullValue: "NULL_VALUE" });
		expect(args).toEqual({ a: { b: 1.5 }, list: [{ x: null }, true] });
		expect(Array.isArray(args.list)).toBe(true);
	});

	it("ignores pieces without a usable path or value", () => {
		const args: Record<string, unknown> = { keep: 1 };
		applyPartialArg(args, { stringValue: "no path" });
		applyPartialArg(args, { jsonPath: "$..deep", stringValue: "x" });
		applyPartialArg(args, { jsonPath: "$.items[*]", stringValue: "x" });
		applyPartialArg(args, { jsonPath: "$.empty" });
		expect(args).toStrictEqual({ keep: 1 });
	});

	it("never writes through a prototype", () => {
		const args: Record<string, unknown> = {};
		applyPartialArg(args, { jsonPath: "$.__proto__.polluted", stringValue: "yes" });
		applyPartialArg(args, { jsonPath: "$.constructor.prototype.polluted", stringValue: "yes" });
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
		expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
		expect(JSON.parse(JSON.stringify(args))).toEqual({ ["__proto__"]: { polluted: "yes" }, constructor: { prototype: { polluted: "yes" } } });
	});
});

describe("parseJsonPath", () => {
	it("reads dotted keys, indexes and quoted keys", () => {
		expect(parseJsonPath("$")).toEqual([]);
		expect(parseJsonPath("$.a.b")).toEqual(["a", "b"]);
		expect(parseJsonPath("$.a[2].b")).toEqual(["a", 2, "b"]);
		expect(parseJsonPath("$['odd key'][\"x.y\"]")).toEqual(["odd key", "x.y"]);
	});

	it("rejects what it cannot follow", () => {
		expect(parseJsonPath("a.b")).toBeUndefined();
		expect(parseJsonPath("$.a[*]")).toBeUndefined();
		expect(parseJsonPath("$.")).toBeUndefined();
		expect(parseJsonPath("$['open")).toBeUndefined();
	});
});
