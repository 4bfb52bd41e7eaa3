/** The JSON Schema → Gemini OpenAPI subset converter used with `compat.toolSchemaField: "parameters"`. */
import { describe, expect, it } from "vitest";
import { toOpenApiSchema } from "../../../src/providers/google-generative-ai/openapi-schema.js";

describe("toOpenApiSchema", () => {
	it("drops keywords outside Gemini's subset and upper-cases types", () => {
		expect(
			toOpenApiSchema({
				$schema: "http://json-schema.org/draft-07/schema#",
				$id: "x",
				type: "object",
				title: "Args",
				description: "The arguments",
				properties: {
					name: { type: "string", minLength: 1, maxLength: 9, pattern: "^[a-z]+$", examples: ["bob"] },
					count: { type: "number", exclusiveMinimum: 0, multipleOf: 2, format: "double" },
					tags: { type: "array", items: { type: "string" }, minItems: 1, uniqueItems: true },
					meta: { type: "object", properties: { a: { type: "boolean" } }, patternProperties: { "^x": {} } },
				},
				additionalProperties: false,
				unevaluatedProperties: false,
				not: { required: ["z"] },
			}),
		).toEqual({
			type: "OBJECT",
			title: "Args",
			description: "The arguments",
			properties: {
				name: { type: "STRING", minLength: 1, maxLength: 9, pattern: "^[a-z]+$", example: "bob" },
				count: { type: "NUMBER", format: "double" },
				tags: { type: "ARRAY", items: { type: "STRING" }, minItems: 1 },
				meta: { type: "OBJECT", properties: { a: { type: "BOOLEAN" } } },
			},
		});
	});

	it("inlines $ref from $defs and definitions, and stops at recursion", () => {
		expect(
			toOpenApiSchema({
				type: "object",
				properties: { node: { $ref: "#/$defs/Node" }, legacy: { $ref: "#/definitions/Old", description: "old one" } },
				$defs: { Node: { type: "object", properties: { value: { type: "string" }, next: { $ref: "#/$defs/Node" } } } },
				definitions: { Old: { type: "integer" } },
			}),
		).toEqual({
			type: "OBJECT",
			properties: {
				node: { type: "OBJECT", properties: { value: { type: "STRING" }, next: { description: "A value of the schema #/$defs/Node." } } },
				legacy: { type: "INTEGER", description: "old one" },
			},
		});
	});

	it("turns null variants into nullable and oneOf into anyOf", () => {
		expect(toOpenApiSchema({ anyOf: [{ type: "string" }, { type: "null" }] })).toEqual({ type: "STRING", nullable: true });
		expect(toOpenApiSchema({ oneOf: [{ type: "string" }, { type: "integer" }] })).toEqual({ anyOf: [{ type: "STRING" }, { type: "INTEGER" }] });
		expect(toOpenApiSchema({ type: ["string", "integer", "null"] })).toEqual({ nullable: true, anyOf: [{ type: "STRING" }, { type: "INTEGER" }] });
		expect(toOpenApiSchema({ type: "string", enum: ["a", "b", null] })).toEqual({ type: "STRING", nullable: true, enum: ["a", "b"] });
	});

	it("keeps string enums and const, and describes non-string ones", () => {
		expect(toOpenApiSchema({ const: "on" })).toEqual({ type: "STRING", enum: ["on"] });
		expect(toOpenApiSchema({ type: "integer", enum: [1, 2], description: "Level." })).toEqual({
			type: "INTEGER",
			description: "Level. Allowed values: 1, 2.",
		});
	});

	it("merges allOf members and keeps only declared required names", () => {
		expect(
			toOpenApiSchema({
				allOf: [
					{ type: "object", properties: { a: { type: "string" } }, required: ["a"] },
					{ properties: { b: { type: "number" } }, required: ["b"] },
				],
				required: ["a", "ghost"],
				properties: { c: { type: "boolean" } },
			}),
		).toEqual({
			type: "OBJECT",
			properties: { a: { type: "STRING" }, b: { type: "NUMBER" }, c: { type: "BOOLEAN" } },
			required: ["a", "b"],
		});
	});

	it("uses the first tuple item schema for items and infers missing types", () => {
		expect(toOpenApiSchema({ prefixItems: [{ type: "number" }, { type: "string" }] })).toEqual({ type: "ARRAY", items: { type: "NUMBER" } });
		expect(toOpenApiSchema({ properties: { x: {} } })).toEqual({ type: "OBJECT", properties: { x: {} } });
	});

	it("keeps a property named __proto__ as a plain property without touching prototypes", () => {
		const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}');
		const converted = toOpenApiSchema(schema);
		const properties = converted.properties as Record<string, unknown>;
		expect(Object.hasOwn(properties, "__proto__")).toBe(true);
		expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
		expect(({} as Record<string, unknown>).type).toBeUndefined();
	});

	it("does not mutate its input", () => {
		const schema = { type: "object", properties: { a: { type: "string" } }, additionalProperties: false };
		const copy = structuredClone(schema);
		toOpenApiSchema(schema);
		expect(schema).toEqual(copy);
	});
});
