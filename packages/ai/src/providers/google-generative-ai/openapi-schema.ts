/**
 * Converts a JSON Schema to the OpenAPI 3.0 subset that Gemini's `FunctionDeclaration.parameters`
 * accepts, for models or gateways that do not take `parametersJsonSchema`.
 *
 * Kept: `type` (upper-cased, as the API's `Type` enum), `description`, `title`, `nullable`,
 * string `enum`, `properties`, `required`, `items`, `anyOf`, `minItems`/`maxItems`,
 * `minProperties`/`maxProperties`, `minLength`/`maxLength`, `pattern`, `minimum`/`maximum`,
 * `default`, `example`, `propertyOrdering`, and the formats Gemini allows (`enum`, `date-time`,
 * `int32`, `int64`, `float`, `double`).
 *
 * Rewritten: local `$ref`s into `$defs`/`definitions` are inlined (a recursive reference becomes a
 * described, untyped leaf); `oneOf` becomes `anyOf`; `allOf` is merged; `type: [T, "null"]`, a
 * `null` variant or a `null` enum value becomes `nullable: true`; `const` becomes a one-value
 * `enum`; `examples` gives `example`; a tuple's first item schema stands for its items.
 * Non-string `enum`/`const` values move into the description ("Allowed values: 1, 2").
 *
 * Dropped: everything else, notably `$schema`, `$id`, `$defs`, `additionalProperties`,
 * `patternProperties`, `unevaluatedProperties`, `not`, `if`/`then`/`else`, `exclusiveMinimum`,
 * `exclusiveMaximum`, `multipleOf`, `contains` and other formats.
 *
 * The input is not mutated.
 *
 * @example
 * toOpenApiSchema({ type: "object", properties: { n: { type: ["integer", "null"] } }, additionalProperties: false });
 * // { type: "OBJECT", properties: { n: { type: "INTEGER", nullable: true } } }
 */
export function toOpenApiSchema(schema: unknown): Record<string, unknown> {
	const root = asObject(schema) ?? {};
	const definitions = { ...asObject(root.definitions), ...asObject(root.$defs) };
	return convert(root, { definitions, resolving: new Set() });
}

interface Scope {
	definitions: Record<string, unknown>;
	/** Definitions being inlined on the current path, to stop at recursion. */
	resolving: Set<string>;
}

type JsonObject = Record<string, unknown>;

const COPIED = [
	"title",
	"description",
	"minItems",
	"maxItems",
	"minProperties",
	"maxProperties",
	"minLength",
	"maxLength",
	"pattern",
	"minimum",
	"maximum",
	"default",
	"example",
	"propertyOrdering",
] as const;

const FORMATS: Readonly<Record<string, ReadonlySet<string>>> = {
	STRING: new Set(["enum", "date-time"]),
	INTEGER: new Set(["int32", "int64"]),
	NUMBER: new Set(["float", "double"]),
};

function convert(node: JsonObject, scope: Scope): JsonObject {
	if (typeof node.$ref === "string") return convertReference(node, scope);
	const out: JsonObject = {};

	const union = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined;
	if (union) {
		const variants = union.map(asObject).filter((variant): variant is JsonObject => variant !== undefined);
		const nonNull = variants.filter((variant) => !isNullSchema(variant));
		if (nonNull.length < variants.length) out.nullable = true;
		if (nonNull.length === 1) Object.assign(out, convert(nonNull[0] as JsonObject, scope));
		else if (nonNull.length > 1) out.anyOf = nonNull.map((variant) => convert(variant, scope));
	}
	if (Array.isArray(node.allOf)) {
		for (const part of node.allOf) {
			const object = asObject(part);
			if (object) mergeInto(out, convert(object, scope));
		}
	}

	let type = node.type;
	if (Array.isArray(type)) {
		const names = type.filter((name): name is string => typeof name === "string");
		const nonNull = names.filter((name) => name !== "null");
		if (nonNull.length < names.length) out.nullable = true;
		if (nonNull.length === 1) type = nonNull[0];
		else {
			type = undefined;
			if (nonNull.length > 1) out.anyOf = nonNull.map((name) => ({ type: name.toUpperCase() }));
		}
	}
	if (type === "null") {
		out.nullable = true;
		type = undefined;
	}
	if (typeof type === "string") out.type = type.toUpperCase();

	for (const key of COPIED) if (node[key] !== undefined) out[key] = node[key];
	if (out.example === undefined && Array.isArray(node.examples) && node.examples.length > 0) out.example = node.examples[0];

	const allowed = "const" in node ? [node.const] : Array.isArray(node.enum) ? node.enum : undefined;
	if (allowed) {
		const values = allowed.filter((value) => value !== null);
		if (values.length < allowed.length) out.nullable = true;
		if (values.every((value): value is string => typeof value === "string")) {
			out.enum = values;
			out.type ??= "STRING";
		} else {
			const listed = values.map((value) => JSON.stringify(value)).join(", ");
			out.description = out.description ? `${String(out.description)} Allowed values: ${listed}.` : `Allowed values: ${listed}.`;
		}
	}

	const properties = asObject(node.properties);
	if (properties) {
		// Properties merged from `allOf` stay; the node's own are added to them.
		const converted: JsonObject = asObject(out.properties) ?? {};
		for (const [name, value] of Object.entries(properties)) {
			const property = asObject(value);
			defineOwn(converted, name, property ? convert(property, scope) : {});
		}
		out.properties = converted;
		out.type ??= "OBJECT";
	}
	const required = [...(Array.isArray(out.required) ? out.required : []), ...(Array.isArray(node.required) ? node.required : [])];
	delete out.required;
	if (required.length > 0) {
		const names = [...new Set(required.filter((name): name is string => typeof name === "string"))];
		// Gemini rejects `required` names that are not declared properties.
		const declared = asObject(out.properties);
		const kept = declared ? names.filter((name) => Object.hasOwn(declared, name)) : names;
		if (kept.length > 0) out.required = kept;
	}

	const items = Array.isArray(node.items) ? node.items[0] : (node.items ?? (Array.isArray(node.prefixItems) ? node.prefixItems[0] : undefined));
	const itemSchema = asObject(items);
	if (itemSchema) {
		out.items = convert(itemSchema, scope);
		out.type ??= "ARRAY";
	}

	if (typeof node.format === "string" && typeof out.type === "string" && FORMATS[out.type]?.has(node.format)) out.format = node.format;
	return out;
}

function convertReference(node: JsonObject, scope: Scope): JsonObject {
	const ref = node.$ref as string;
	const match = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(ref);
	const name = match ? decodePointer(match[1] as string) : undefined;
	const target = name !== undefined && Object.hasOwn(scope.definitions, name) ? asObject(scope.definitions[name]) : undefined;
	const { $ref: _ref, ...siblings } = node;
	if (!target || scope.resolving.has(name as string)) {
		// Gemini's subset has no references: a recursive (or unresolvable) one ends the tree here.
		const description = typeof siblings.description === "string" ? siblings.description : `A value of the schema ${ref}.`;
		return { description };
	}
	scope.resolving.add(name as string);
	try {
		return convert({ ...target, ...siblings }, scope);
	} finally {
		scope.resolving.delete(name as string);
	}
}

/** Merges an `allOf` member into the schema built so far: properties and required lists join. */
function mergeInto(out: JsonObject, part: JsonObject): void {
	for (const [key, value] of Object.entries(part)) {
		if (key === "properties" && asObject(out.properties)) {
			Object.assign(out.properties as JsonObject, value);
		} else if (key === "required" && Array.isArray(out.required)) {
			out.required = [...new Set([...(out.required as string[]), ...(value as string[])])];
		} else {
			out[key] = value;
		}
	}
}

function isNullSchema(schema: JsonObject): boolean {
	return schema.type === "null" || (Array.isArray(schema.enum) && schema.enum.length === 1 && schema.enum[0] === null) || ("const" in schema && schema.const === null);
}

function asObject(value: unknown): JsonObject | undefined {
	return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;
}

function defineOwn(target: JsonObject, key: string, value: unknown): void {
	if (key === "__proto__") Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
	else target[key] = value;
}

function decodePointer(segment: string): string {
	return decodeURIComponent(segment).replace(/~1/g, "/").replace(/~0/g, "~");
}
