import { describe, expect, it } from "vitest";
import { closedOutputSchema, dropNullOptionals, findRecursion, strictOutputSchema } from "../../src/structured-output/strict-output-schema.js";

/** The strict-mode and closed forms of an output schema, and what each API cannot take. */

const LABEL = "strict mode";

describe("strictOutputSchema (OpenAI strict mode)", () => {
	it("requires every property, makes the optional ones nullable in every form, and closes objects", () => {
		const schema = {
			type: "object",
			properties: {
				name: { type: "string" },
				kind: { type: "string", enum: ["a", "b"] },
				size: { type: ["integer", "string"] },
				either: { anyOf: [{ type: "string" }, { type: "number" }] },
				one: { oneOf: [{ type: "string" }, { type: "boolean" }] },
				ref: { $ref: "#/$defs/Point" },
				already: { type: ["string", "null"] },
				list: { type: "array", items: { type: "object", properties: { x: { type: "number" } } } },
			},
			required: ["name", "one"],
			$defs: { Point: { type: "object", properties: { x: { type: "number" } }, required: ["x"] } },
		};
		expect(strictOutputSchema(schema, LABEL)).toEqual({
			type: "object",
			properties: {
				name: { type: "string" },
				kind: { anyOf: [{ type: "string", enum: ["a", "b"] }, { type: "null" }] },
				size: { type: ["integer", "string", "null"] },
				either: { anyOf: [{ type: "string" }, { type: "number" }, { type: "null" }] },
				one: { anyOf: [{ type: "string" }, { type: "boolean" }] },
				ref: { anyOf: [{ $ref: "#/$defs/Point" }, { type: "null" }] },
				already: { type: ["string", "null"] },
				list: {
					type: ["array", "null"],
					items: { type: "object", properties: { x: { type: ["number", "null"] } }, required: ["x"], additionalProperties: false },
				},
			},
			required: ["name", "kind", "size", "either", "one", "ref", "already", "list"],
			additionalProperties: false,
			$defs: { Point: { type: "object", properties: { x: { type: "number" } }, required: ["x"], additionalProperties: false } },
		});
		// The input is not changed.
		expect(schema.required).toEqual(["name", "one"]);
	});

	it("refuses what strict mode cannot take, naming the construct and where", () => {
		const refused = (schema: object) => () => strictOutputSchema(schema as Record<string, unknown>, LABEL);
		expect(refused({ type: "array", items: { type: "string" } })).toThrow(
			'The output schema cannot be sent to strict mode: it has a root that is not an object (strict mode needs `type: "object"` at the root) at #.',
		);
		expect(refused({ type: "object", properties: { a: { not: { type: "string" } } } })).toThrow('it has "not" at #/properties/a/not.');
		expect(refused({ type: "object", properties: { a: { type: "object", additionalProperties: { type: "number" } } } })).toThrow(
			"it has a map (`additionalProperties` other than false; use an array of entries instead) at #/properties/a/additionalProperties.",
		);
		expect(refused({ type: "object", if: { required: ["a"] }, then: {} })).toThrow('it has "if" at #/if.');
	});
});

describe("closedOutputSchema (Anthropic structured outputs)", () => {
	it("closes every object and keeps `required` as written", () => {
		expect(closedOutputSchema({ type: "object", properties: { a: { type: "object", properties: {} } }, required: [] }, LABEL)).toEqual({
			type: "object",
			properties: { a: { type: "object", properties: {}, additionalProperties: false } },
			required: [],
			additionalProperties: false,
		});
	});

	it("refuses recursion through `#` and through $defs, and not a definition used twice", () => {
		expect(findRecursion({ type: "object", properties: { kids: { type: "array", items: { $ref: "#" } } } })).toBe("#/properties/kids/items");
		const viaDefs = { $ref: "#/$defs/Node", $defs: { Node: { type: "object", properties: { next: { $ref: "#/$defs/Node" } } } } };
		expect(findRecursion(viaDefs)).toBe("#/$ref/properties/next");
		const twice = { type: "object", properties: { a: { $ref: "#/$defs/P" }, b: { $ref: "#/$defs/P" } }, $defs: { P: { type: "string" } } };
		expect(findRecursion(twice)).toBeUndefined();
		expect(() => closedOutputSchema(viaDefs, "Anthropic")).toThrow("The output schema cannot be sent to Anthropic: it has a recursive schema (a $ref that reaches itself) at #/$ref/properties/next.");
	});
});

describe("dropNullOptionals", () => {
	const schema = {
		type: "object",
		properties: {
			a: { type: "string" },
			b: { type: ["string", "null"] },
			c: { type: "string" },
			inner: { $ref: "#/$defs/Inner" },
			list: { type: "array", items: { $ref: "#/$defs/Inner" } },
		},
		required: ["c"],
		$defs: { Inner: { type: "object", properties: { x: { type: "number" } } } },
	};

	it("drops the null of an optional property whose schema has no null, in nested objects and arrays too", () => {
		const value = { a: null, b: null, c: null, inner: { x: null }, list: [{ x: null }, { x: 1 }] };
		expect(dropNullOptionals(schema, value)).toEqual({ b: null, c: null, inner: {}, list: [{}, { x: 1 }] });
	});
});
