/**
 * The one seam between a schema and everything that uses it: the JSON Schema a request carries
 * (tools' `parameters`, `output.schema`) and how a value is checked against it. A schema is a
 * typebox schema or plain JSON Schema object, or a Standard Schema that also implements Standard
 * JSON Schema (zod, valibot through `@valibot/to-json-schema`, arktype).
 */
import { formatSchemaErrors } from "./format-schema-errors.js";
import { formatStandardIssues } from "./format-standard-issues.js";
import { type CompiledSchema, schemaCompiler } from "./load-schema-compiler.js";
import type { JsonSchemaTarget, StandardSchemaResult, StandardToolSchema } from "./standard-schema.js";

/** A JSON Schema object as plain JSON (no typebox symbols, no functions). */
export type JsonSchemaObject = Record<string, unknown>;

/** What a validation found: the value to use (the library's output value), or one line per problem. */
export type SchemaValidation = { ok: true; value: unknown } | { ok: false; problems: string[] };

/** A schema resolved once: its JSON Schema per target, and its validator. */
export interface ResolvedSchema {
	/** The library that made a Standard Schema (`"zod"`, …); `undefined` for typebox and plain JSON Schema. */
	readonly vendor: string | undefined;
	/**
	 * The JSON Schema to send, as plain JSON, computed once per target (default `draft-2020-12`).
	 * A Standard Schema gives `~standard.jsonSchema.input({ target })` (the values it accepts,
	 * which is what a model writes), with the root `$schema` dropped: the API fixes the dialect,
	 * and Gemini's OpenAPI subset has no such keyword. A library that refuses the target (arktype
	 * has no `openapi-3.0`) gives its `draft-2020-12` schema instead, which the API's own
	 * conversion then adapts. Typebox and plain JSON Schema give a JSON copy, whatever the target.
	 * Callers may change what they get only after copying it: it is shared.
	 */
	jsonSchema(target?: JsonSchemaTarget): JsonSchemaObject;
	/**
	 * Checks `value`. A Standard Schema's `~standard.validate` gives the library's output value
	 * (defaults, transforms, coercions) and may answer with a promise; typebox gives `value`
	 * itself, unchanged, and always answers at once. Problems read `<JSON path>: <message>`.
	 */
	validate(value: unknown): SchemaValidation | Promise<SchemaValidation>;
}

const resolved = new WeakMap<object, ResolvedSchema>();

/**
 * Resolves `schema` once per schema object (cached by identity; later calls cost a lookup).
 * `what` names the schema in error messages, e.g. `tool "weather" parameters`.
 *
 * Throws a `TypeError` when `schema` is not an object, or when it is a Standard Schema without a
 * JSON Schema converter (`~standard.jsonSchema`): there is then nothing to send to the model, and
 * the message names the library and how to get one.
 *
 * @example
 * const resolved = resolveSchema(z.object({ city: z.string() }), 'tool "weather" parameters');
 * resolved.jsonSchema(); // { type: "object", properties: { city: { type: "string" } }, required: ["city"] }
 * await resolved.validate({ city: "Oslo" }); // { ok: true, value: { city: "Oslo" } }
 */
export function resolveSchema(schema: unknown, what: string): ResolvedSchema {
	if ((typeof schema !== "object" && typeof schema !== "function") || schema === null || Array.isArray(schema)) {
		throw new TypeError(`The ${what} must be a JSON Schema object, a typebox schema, or a Standard Schema with ~standard.jsonSchema (zod, valibot, arktype)`);
	}
	let entry = resolved.get(schema);
	if (!entry) {
		const standard = (schema as { "~standard"?: unknown })["~standard"];
		entry = standard === undefined ? resolveJsonSchema(schema) : resolveStandardSchema(schema as StandardToolSchema, what);
		resolved.set(schema, entry);
	}
	return entry;
}

/** Whether `schema` is a Standard Schema (as opposed to typebox or plain JSON Schema). */
export function isStandardSchema(schema: unknown): schema is StandardToolSchema {
	return (typeof schema === "object" || typeof schema === "function") && schema !== null && (schema as { "~standard"?: unknown })["~standard"] !== undefined;
}

function resolveJsonSchema(schema: object): ResolvedSchema {
	let json: JsonSchemaObject | undefined;
	let validator: CompiledSchema | undefined;
	return {
		vendor: undefined,
		// A JSON round trip drops typebox's symbol and non-enumerable keys, and copies.
		jsonSchema: () => (json ??= JSON.parse(JSON.stringify(schema)) as JsonSchemaObject),
		validate(value) {
			// The first use loads typebox's schema compiler (about 90 ms, once).
			validator ??= schemaCompiler().Compile(schema);
			if (validator.Check(value)) return { ok: true, value };
			return { ok: false, problems: formatSchemaErrors(validator.Errors(value)[1]) };
		},
	};
}

function resolveStandardSchema(schema: StandardToolSchema, what: string): ResolvedSchema {
	const standard = schema["~standard"];
	const vendor = typeof standard.vendor === "string" ? standard.vendor : "unknown";
	if (typeof standard.validate !== "function") {
		throw new TypeError(`The ${what} has "~standard" but no ~standard.validate function: it is not a Standard Schema v1 (vendor "${vendor}")`);
	}
	if (typeof standard.jsonSchema?.input !== "function") {
		throw new TypeError(
			`The ${what} is a ${vendor} schema without a JSON Schema converter (~standard.jsonSchema, Standard JSON Schema v1), so there is no JSON Schema to send to the model. ${converterHint(vendor)}`,
		);
	}
	const targets = new Map<JsonSchemaTarget, JsonSchemaObject>();
	const convert = (target: JsonSchemaTarget): JsonSchemaObject => {
		let json: JsonSchemaObject;
		try {
			json = standard.jsonSchema.input({ target });
		} catch (error) {
			if (target !== "draft-2020-12") return jsonSchemaFor("draft-2020-12");
			const reason = error instanceof Error ? error.message : String(error);
			throw new TypeError(`The ${what} (${vendor}) could not be converted to JSON Schema: ${reason}`, { cause: error });
		}
		const { $schema: _dialect, ...rest } = JSON.parse(JSON.stringify(json)) as JsonSchemaObject;
		return rest;
	};
	const jsonSchemaFor = (target: JsonSchemaTarget): JsonSchemaObject => {
		let json = targets.get(target);
		if (!json) {
			json = convert(target);
			targets.set(target, json);
		}
		return json;
	};
	return {
		vendor,
		jsonSchema: (target = "draft-2020-12") => jsonSchemaFor(target),
		validate(value) {
			const result = standard.validate(value);
			return isPromise(result) ? result.then(outcome) : outcome(result);
		},
	};
}

function outcome(result: StandardSchemaResult<unknown>): SchemaValidation {
	if (result.issues) return { ok: false, problems: formatStandardIssues(result.issues) };
	return { ok: true, value: result.value };
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
	return typeof (value as { then?: unknown }).then === "function";
}

/** How to get a JSON Schema converter for a schema library, by its `~standard.vendor`. */
function converterHint(vendor: string): string {
	switch (vendor) {
		case "valibot":
			return "Wrap the schema with toStandardJsonSchema from @valibot/to-json-schema: toStandardJsonSchema(v.object({ … })).";
		case "zod":
			return "Zod schemas have one from zod 4.2: upgrade zod.";
		case "arktype":
			return "ArkType types have one from arktype 2.1.28: upgrade arktype.";
		default:
			return `Use a version of ${vendor} that implements Standard JSON Schema, or pass the JSON Schema itself (a plain object) instead.`;
	}
}
