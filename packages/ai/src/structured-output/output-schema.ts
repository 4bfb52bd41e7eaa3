/**
 * Structured output's side of the schema seam (`resolveSchema`): what JSON Schema the request
 * carries, and how a parsed reply is checked. A schema is a typebox schema, a plain JSON Schema
 * object, or a Standard Schema with a JSON Schema converter (zod, valibot, arktype).
 */
import { type JsonSchemaObject, resolveSchema } from "../validation/resolve-schema.js";
import type { JsonSchemaTarget } from "../validation/standard-schema.js";
import type { OutputOptions } from "../types.js";

export type { JsonSchemaObject } from "../validation/resolve-schema.js";

/** The name sent with the schema where an API takes one. */
export const DEFAULT_OUTPUT_NAME = "output";

const NAME = /^[A-Za-z0-9_-]{1,64}$/;
const WHAT = "options.output.schema";

/**
 * The JSON Schema of `output.schema`, as plain JSON (a typebox schema's hidden fields dropped; a
 * Standard Schema's `~standard.jsonSchema.input({ target })`), computed once per schema object
 * and target (default `draft-2020-12`). Throws a `TypeError` naming the problem when the schema is
 * not a schema, is a Standard Schema without a JSON Schema converter, or `name` is not one an API
 * accepts. The result is shared: the per-API adaptations copy before they change anything.
 *
 * @example
 * outputJsonSchema({ schema: Type.Object({ city: Type.String() }) })
 * // { type: "object", properties: { city: { type: "string" } }, required: ["city"] }
 */
export function outputJsonSchema(output: OutputOptions, target?: JsonSchemaTarget): JsonSchemaObject {
	const schema: unknown = output?.schema;
	if (typeof schema !== "object" && typeof schema !== "function") {
		throw new TypeError("options.output.schema must be a JSON Schema object (for example a typebox schema) or a zod / valibot / arktype schema");
	}
	if (output.name !== undefined && !NAME.test(output.name)) {
		throw new TypeError(`options.output.name ${JSON.stringify(output.name)} must be 1 to 64 letters, digits, "_" or "-"`);
	}
	return resolveSchema(schema, WHAT).jsonSchema(target);
}

/** The name of the output schema: `output.name`, else {@link DEFAULT_OUTPUT_NAME}. */
export function outputName(output: OutputOptions): string {
	return output.name ?? DEFAULT_OUTPUT_NAME;
}

/** What {@link checkOutput} found: the value to keep (a Standard Schema's output value), or the first problem. */
export type OutputCheck = { ok: true; value: unknown } | { ok: false; problem: string };

/**
 * Checks a parsed reply against `output.schema` with the schema's own validator: typebox's
 * compiler (the value is kept as it is), or the library's `~standard.validate` (its output value
 * is kept: defaults, transforms). A problem reads `<JSON path>: <what was expected>`, e.g.
 * `/total: expected number`. A validator that answers with a promise is refused, naming the
 * schema: a reply's end is synchronous.
 *
 * The first typebox check loads typebox's schema compiler (about 90 ms, once).
 */
export function checkOutput(output: OutputOptions, value: unknown): OutputCheck {
	const checked = resolveSchema(output.schema, WHAT).validate(value);
	if (checked instanceof Promise) {
		// Keep the rejection of an abandoned promise from going unhandled.
		checked.catch(() => undefined);
		throw new Error("its validator is asynchronous (~standard.validate returned a promise); structured output needs a schema that validates synchronously");
	}
	return checked.ok ? checked : { ok: false, problem: checked.problems[0] as string };
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
