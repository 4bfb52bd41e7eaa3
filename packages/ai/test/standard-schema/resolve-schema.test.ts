/**
 * `resolveSchema`, the one seam from a schema to JSON Schema and a validator: once per schema
 * object, the library's own converter and validator, refusals that say what to do.
 */
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import { Type } from "typebox";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { formatStandardIssues } from "../../src/validation/format-standard-issues.js";
import { resolveSchema } from "../../src/validation/resolve-schema.js";
import type { StandardToolSchema } from "../../src/validation/standard-schema.js";
import { validateToolArguments } from "../../src/validation/validate-tool-arguments.js";

/** A real zod schema whose converter counts its calls (the schema itself is zod's, untouched). */
function counted(schema: z.ZodType) {
	const standard = schema["~standard"];
	const calls: string[] = [];
	const wrapper: StandardToolSchema = {
		"~standard": {
			...standard,
			validate: standard.validate,
			jsonSchema: {
				input: (options) => {
					calls.push(options.target);
					return standard.jsonSchema.input(options);
				},
				output: standard.jsonSchema.output,
			},
		},
	};
	return { wrapper, calls };
}

describe("conversion happens once per schema object and target", () => {
	it("a second resolve of the same object converts nothing and gives the same JSON", () => {
		const { wrapper, calls } = counted(z.object({ city: z.string() }));
		const first = resolveSchema(wrapper, "test schema").jsonSchema();
		for (let i = 0; i < 5; i++) expect(resolveSchema(wrapper, "test schema").jsonSchema()).toBe(first);
		expect(calls).toEqual(["draft-2020-12"]);
		resolveSchema(wrapper, "test schema").jsonSchema("openapi-3.0");
		resolveSchema(wrapper, "test schema").jsonSchema("openapi-3.0");
		expect(calls).toEqual(["draft-2020-12", "openapi-3.0"]);
	});

	it("the root $schema is dropped; the rest is the library's own JSON Schema", () => {
		const schema = z.object({ city: z.string() });
		const expected = { ...schema["~standard"].jsonSchema.input({ target: "draft-2020-12" }) };
		delete expected.$schema;
		expect(resolveSchema(schema, "test schema").jsonSchema()).toEqual(expected);
	});

	it("arktype has no openapi-3.0 target: its draft 2020-12 schema stands in", () => {
		const schema = type({ city: "string" });
		expect(resolveSchema(schema, "test schema").jsonSchema("openapi-3.0")).toEqual({ type: "object", properties: { city: { type: "string" } }, required: ["city"] });
	});

	it("typebox: a JSON copy without typebox's hidden keys", () => {
		const schema = Type.Object({ city: Type.String() });
		const json = resolveSchema(schema, "test schema").jsonSchema();
		expect(json).toEqual({ type: "object", properties: { city: { type: "string" } }, required: ["city"] });
		expect(json).not.toBe(schema);
	});
});

describe("a schema that cannot be sent is refused, saying what to do", () => {
	it("valibot without toStandardJsonSchema", () => {
		expect(() => resolveSchema(v.object({ city: v.string() }), "parameters schema of tool \"weather\"")).toThrow(
			'The parameters schema of tool "weather" is a valibot schema without a JSON Schema converter (~standard.jsonSchema, Standard JSON Schema v1), so there is no JSON Schema to send to the model. Wrap the schema with toStandardJsonSchema from @valibot/to-json-schema: toStandardJsonSchema(v.object({ … })).',
		);
	});

	it("another library, by its vendor name", () => {
		const schema = { "~standard": { version: 1, vendor: "effect", validate: (value: unknown) => ({ value }) } };
		expect(() => resolveSchema(schema, "options.output.schema")).toThrow(/^The options\.output\.schema is a effect schema without a JSON Schema converter .* Use a version of effect that implements Standard JSON Schema, or pass the JSON Schema itself \(a plain object\) instead\.$/);
	});

	it("not a schema at all", () => {
		expect(() => resolveSchema("string", "options.output.schema")).toThrow(TypeError);
	});

	it("a converter that throws: the error names the schema and the library", () => {
		const schema = z.object({ when: z.date() });
		expect(() => resolveSchema(schema, "parameters schema of tool \"calendar\"").jsonSchema()).toThrow(/^The parameters schema of tool "calendar" \(zod\) could not be converted to JSON Schema: /);
	});
});

describe("validation goes through the library", () => {
	it("valibot's issues: path segments `{ key }` become a JSON Pointer", async () => {
		const schema = toStandardJsonSchema(v.object({ items: v.array(v.object({ qty: v.number() })) }));
		expect(await resolveSchema(schema, "test schema").validate({ items: [{ qty: 1 }, { qty: "2" }] })).toEqual({ ok: false, problems: ["/items/1/qty: Invalid type: Expected number but received \"2\""] });
	});

	it("issue paths escape ~ and / as JSON Pointer does; no path is the root", () => {
		expect(formatStandardIssues([{ message: "bad", path: ["a/b", { key: "c~d" }, 0] }, { message: "whole" }])).toEqual(["/a~1b/c~0d/0: bad", "/: whole"]);
	});

	it("validateToolArguments gives zod's output value, and refuses an async validator with a pointer to parseToolArguments", () => {
		const call = { type: "toolCall" as const, id: "c1", name: "weather", arguments: { city: "oslo" } };
		const tool = { name: "weather", description: "Weather", parameters: z.object({ city: z.string().transform((city) => city.toUpperCase()), days: z.number().default(3) }) };
		expect(validateToolArguments(tool, call)).toEqual({ city: "OSLO", days: 3 });
		const asyncTool = { ...tool, parameters: z.object({ city: z.string().refine(async () => true) }) };
		expect(() => validateToolArguments(asyncTool, call)).toThrow('Tool "weather" validates its arguments asynchronously: call parseToolArguments (which awaits it) instead of validateToolArguments.');
	});
});
