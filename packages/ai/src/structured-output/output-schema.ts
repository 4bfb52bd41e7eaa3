/**
 * The one seam between an output schema and the rest of structured output: what JSON Schema the
 * request carries, and how a parsed reply is checked. Today a schema is a typebox schema or a
 * plain JSON Schema object; another kind of schema (Standard Schema, issue 37) plugs in here and
 * nowhere else.
 */
import { formatSchemaErrors } from "../validation/format-schema-errors.js";
import { type CompiledSchema, schemaCompiler } from "../validation/load-schema-compiler.js";
import type { OutputOptions } from "../types.js";

/** A JSON Schema object as plain JSON (no typebox symbols or hidden fields). */
export type JsonSchemaObject = Record<string, unknown>;

/** The name sent with the schema where an API takes one. */
export const DEFAULT_OUTPUT_NAME = "output";

const NAME = /^[A-Za-z0-9_-]{1,64}$/;
const jsonSchemas = new WeakMap<object, JsonSchemaObject>();
const validators = new WeakMap<object, CompiledSchema>();

/**
 * The JSON Schema of `output.schema`, as plain JSON (a typebox schema's hidden fields dropped),
 * computed once per schema object. Throws a `TypeError` naming the problem when the schema is not
 * a JSON Schema object or `name` is not one an API accepts.
 *
 * @example
 * outputJsonSchema({ schema: Type.Object({ city: Type.String() }) })
 * // { type: "object", properties: { city: { type: "string" } }, required: ["city"] }
 */
export function outputJsonSchema(output: OutputOptions): JsonSchemaObject {
	const schema: unknown = output?.schema;
	if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
		throw new TypeError("options.output.schema must be a JSON Schema object (for example a typebox schema)");
	}
	if (output.name !== undefined && !NAME.test(output.name)) {
		throw new TypeError(`options.output.name ${JSON.stringify(output.name)} must be 1 to 64 letters, digits, "_" or "-"`);
	}
	let json = jsonSchemas.get(schema);
	if (!json) {
		// A JSON round trip drops typebox's symbol and non-enumerable keys and copies, so that the
		// per-API adaptations can never change the caller's schema.
		json = JSON.parse(JSON.stringify(schema)) as JsonSchemaObject;
		jsonSchemas.set(schema, json);
	}
	return json;
}

/** The name of the output schema: `output.name`, else {@link DEFAULT_OUTPUT_NAME}. */
export function outputName(output: OutputOptions): string {
	return output.name ?? DEFAULT_OUTPUT_NAME;
}

/**
 * Checks a parsed reply against `output.schema`. Returns `undefined` when it matches, else the
 * first problem as `<JSON path>: <what was expected>`, e.g. `/total: expected number`.
 *
 * The first call loads typebox's schema compiler (about 90 ms, once); each schema is compiled
 * once and cached.
 */
export function checkOutput(output: OutputOptions, value: unknown): string | undefined {
	const schema = output.schema as object;
	let validator = validators.get(schema);
	if (!validator) {
		validator = schemaCompiler().Compile(outputJsonSchema(output));
		validators.set(schema, validator);
	}
	if (validator.Check(value)) return undefined;
	const [, errors] = validator.Errors(value);
	return formatSchemaErrors(errors)[0];
}

/**
 * The instruction that asks for `output` in words, for APIs that can constrain a reply to JSON but
 * not to a schema (Chat Completions JSON mode) or not beside tools (Gemini 2.x): the schema as
 * JSON, and that the reply is that value and nothing else.
 *
 * @example
 * outputInstruction({ schema: Type.Object({ a: Type.String() }), name: "thing" })
 * // 'Reply with a single JSON value "thing" that matches this JSON Schema, and nothing else:\n{"type":"object",…}'
 */
export function outputInstruction(output: OutputOptions): string {
	const description = output.description ? ` (${output.description})` : "";
	return `Reply with a single JSON value "${outputName(output)}"${description} that matches this JSON Schema, and nothing else:\n${JSON.stringify(outputJsonSchema(output))}`;
}
