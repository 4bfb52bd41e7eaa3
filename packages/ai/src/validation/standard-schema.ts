/**
 * The two interfaces of the Standard Schema project (https://standardschema.dev) that tools and
 * structured output accept: Standard Schema v1 (`~standard.validate`) and Standard JSON Schema v1
 * (`~standard.jsonSchema`). They are written here as types, after the published specification, so
 * that `@pi/ai` needs no package for them: zod 4.2+, valibot 1.2+ (through
 * `@valibot/to-json-schema`) and arktype 2.1.28+ implement both, and their schemas fit these
 * types structurally. Types only: importing this module costs nothing at run time.
 */
import type { Static, TSchema } from "typebox";

/** What every Standard Schema object carries under `~standard`, whatever it can do. */
export interface StandardSchemaProps<Input = unknown, Output = Input> {
	/** The version of the specification: 1. */
	readonly version: 1;
	/** The library that made the schema (`"zod"`, `"valibot"`, `"arktype"`, …). */
	readonly vendor: string;
	/** The inferred types, for the type checker only (never set at run time). */
	readonly types?: { readonly input: Input; readonly output: Output } | undefined;
}

/** One problem a Standard Schema validator found: a message, and where (a list of keys). */
export interface StandardSchemaIssue {
	readonly message: string;
	/** Keys from the root to the value; a key may come wrapped as `{ key }`. */
	readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
}

/** What `~standard.validate` returns: the output value, or the issues. */
export type StandardSchemaResult<Output> =
	| { readonly value: Output; readonly issues?: undefined }
	| { readonly issues: ReadonlyArray<StandardSchemaIssue> };

/**
 * Standard Schema v1: a schema that validates. `validate` returns the library's output value
 * (defaults filled, transforms applied) or its issues, possibly as a promise.
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
	readonly "~standard": StandardSchemaProps<Input, Output> & {
		readonly validate: (value: unknown, options?: { readonly libraryOptions?: Record<string, unknown> | undefined }) => StandardSchemaResult<Output> | Promise<StandardSchemaResult<Output>>;
	};
}

/**
 * The JSON Schema dialects a Standard JSON Schema converter is asked for. A library may refuse a
 * target it does not know (arktype has no `openapi-3.0`).
 */
export type JsonSchemaTarget = "draft-2020-12" | "draft-07" | "openapi-3.0";

/** Standard JSON Schema v1: a schema that can describe itself as JSON Schema. */
export interface StandardJSONSchemaV1<Input = unknown, Output = Input> {
	readonly "~standard": StandardSchemaProps<Input, Output> & {
		readonly jsonSchema: {
			/** The JSON Schema of the values the schema accepts (what a model must write). */
			readonly input: (options: { readonly target: JsonSchemaTarget | (string & {}); readonly libraryOptions?: Record<string, unknown> | undefined }) => Record<string, unknown>;
			/** The JSON Schema of the values validation gives back. */
			readonly output: (options: { readonly target: JsonSchemaTarget | (string & {}); readonly libraryOptions?: Record<string, unknown> | undefined }) => Record<string, unknown>;
		};
	};
}

/**
 * A schema from any library that implements both Standard Schema v1 and Standard JSON Schema v1,
 * e.g. `z.object({ … })`, `toStandardJsonSchema(v.object({ … }))`, arktype's `type({ … })`.
 */
export interface StandardToolSchema<Input = unknown, Output = Input> {
	readonly "~standard": StandardSchemaV1<Input, Output>["~standard"] & StandardJSONSchemaV1<Input, Output>["~standard"];
}

/**
 * What tools' `parameters` and `output.schema` accept: a typebox schema (or any plain JSON Schema
 * object typed as `TSchema`), or a {@link StandardToolSchema}.
 */
export type ToolSchema = TSchema | StandardToolSchema;

/**
 * The type of the values a schema gives back: `StandardSchemaV1.InferOutput` for a Standard
 * Schema (after its defaults and transforms), `Static<…>` for a typebox schema.
 *
 * @example
 * type Args = SchemaOutput<typeof weatherParameters>; // z.output<typeof weatherParameters> for zod
 */
export type SchemaOutput<T extends ToolSchema> = T extends { readonly "~standard": { readonly types?: infer Types } }
	? NonNullable<Types> extends { readonly output: infer Output }
		? Output
		: unknown
	: Static<T>;
