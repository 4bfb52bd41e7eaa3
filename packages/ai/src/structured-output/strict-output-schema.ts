/**
 * Adapts an output JSON Schema to the subsets that constrained decoding accepts, or refuses it
 * before the request with an error naming the construct and where it is.
 *
 * - OpenAI strict mode (Chat Completions `response_format`, Responses `text.format`): the root is
 *   an object; every object lists all its properties in `required` and has
 *   `additionalProperties: false`; a property that was optional becomes nullable (the reply's
 *   `null` is dropped again by {@link dropNullOptionals} before validation). `oneOf` is sent as
 *   `anyOf`. Refused: `allOf`, `not`, `if`/`then`/`else`, `dependentRequired`,
 *   `dependentSchemas`, `patternProperties`, and maps (`additionalProperties` with a schema).
 * - Anthropic structured outputs (`output_config.format`): every object gets
 *   `additionalProperties: false`; maps and recursive schemas (a `$ref` that reaches itself)
 *   are refused.
 */
import type { JsonSchemaObject } from "./output-schema.js";

type Node = JsonSchemaObject;

const STRICT_UNSUPPORTED = ["allOf", "not", "if", "then", "else", "dependentRequired", "dependentSchemas", "patternProperties"];
/** Keywords whose value is one schema, a list of schemas, or a map of name → schema. */
const ONE = ["items", "additionalProperties", "contains", "propertyNames", "not", "if", "then", "else"];
const MANY = ["anyOf", "oneOf", "allOf", "prefixItems"];
const MAP = ["properties", "$defs", "definitions", "patternProperties", "dependentSchemas"];

/**
 * The OpenAI strict-mode form of `schema` (a copy; the input is not changed). Throws an `Error`
 * naming the construct and its JSON Schema path when strict mode cannot take the schema.
 *
 * @example
 * strictOutputSchema({ type: "object", properties: { a: { type: "string" } } }, "OpenAI strict mode")
 * // { type: "object", properties: { a: { type: ["string", "null"] } }, required: ["a"], additionalProperties: false }
 */
export function strictOutputSchema(schema: Node, label: string): Node {
	if (!isObjectSchema(schema)) refuse(label, "#", 'a root that is not an object (strict mode needs `type: "object"` at the root)');
	return strictNode(schema, "#", label);
}

function strictNode(node: Node, path: string, label: string): Node {
	for (const keyword of STRICT_UNSUPPORTED) {
		if (!(keyword in node)) continue;
		refuse(label, `${path}/${keyword}`, keyword === "patternProperties" ? 'a map ("patternProperties"; use an array of entries instead)' : `"${keyword}"`);
	}
	const out: Node = { ...node };
	if ("oneOf" in out) {
		out.anyOf = out.oneOf;
		delete out.oneOf;
	}
	mapChildren(out, path, (child, childPath) => strictNode(child, childPath, label));
	if (isObjectSchema(out) && out.properties !== undefined) {
		const properties = out.properties as Record<string, Node>;
		const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
		for (const [key, property] of Object.entries(properties)) {
			if (!required.has(key)) properties[key] = nullable(property);
		}
		out.required = Object.keys(properties);
	}
	if (isObjectSchema(out)) closeObject(out, path, label);
	return out;
}

/**
 * The Anthropic structured-outputs form of `schema`: objects closed with
 * `additionalProperties: false`; maps and recursive schemas refused, naming where.
 */
export function closedOutputSchema(schema: Node, label: string): Node {
	const cycle = findRecursion(schema);
	if (cycle) refuse(label, cycle, "a recursive schema (a $ref that reaches itself)");
	return closedNode(schema, "#", label);
}

function closedNode(node: Node, path: string, label: string): Node {
	const out: Node = { ...node };
	mapChildren(out, path, (child, childPath) => closedNode(child, childPath, label));
	if (isObjectSchema(out)) closeObject(out, path, label);
	return out;
}

function closeObject(out: Node, path: string, label: string): void {
	const extra = out.additionalProperties;
	if (extra !== undefined && extra !== false) {
		refuse(label, `${path}/additionalProperties`, "a map (`additionalProperties` other than false; use an array of entries instead)");
	}
	out.additionalProperties = false;
}

/**
 * Removes the `null` that strict mode makes a model write for an optional property, where the
 * original schema does not allow `null` there, so that the value validates against the schema
 * the caller wrote. Changes `value` in place and returns it.
 */
export function dropNullOptionals(schema: Node, value: unknown): unknown {
	dropIn(schema, schema, value, 0);
	return value;
}

function dropIn(root: Node, node: Node, value: unknown, depth: number): void {
	if (depth > 64 || typeof value !== "object" || value === null) return;
	const target = resolve(root, node);
	if (!target) return;
	if (Array.isArray(value)) {
		const items = target.items;
		if (isNode(items)) for (const item of value) dropIn(root, items, item, depth + 1);
		return;
	}
	const properties = target.properties;
	if (!isNode(properties)) return;
	const required = new Set(Array.isArray(target.required) ? (target.required as string[]) : []);
	const record = value as Record<string, unknown>;
	for (const [key, property] of Object.entries(properties)) {
		if (!isNode(property) || !(key in record)) continue;
		if (record[key] === null && !required.has(key) && !allowsNull(root, property)) delete record[key];
		else dropIn(root, property, record[key], depth + 1);
	}
}

/** Where the first `$ref` that reaches itself is, as a JSON Schema path; `undefined` when none. */
export function findRecursion(schema: Node): string | undefined {
	const visit = (node: Node, path: string, active: Set<string>): string | undefined => {
		const ref = node.$ref;
		if (typeof ref === "string") {
			if (active.has(ref)) return path;
			const target = resolve(schema, { $ref: ref });
			if (target) {
				const next = new Set(active).add(ref);
				const found = visit(target, `${path}/$ref`, next);
				if (found) return found;
			}
		}
		let found: string | undefined;
		forEachChild(node, path, (child, childPath) => {
			// Definitions are checked where they are used, not on their own.
			if (!found && !/\/(\$defs|definitions)\/[^/]+$/.test(childPath)) found = visit(child, childPath, active);
		});
		return found;
	};
	return visit(schema, "#", new Set(["#"]));
}

function nullable(schema: Node): Node {
	if (allowsNullDirectly(schema)) return schema;
	const type = schema.type;
	if (typeof type === "string" && !("enum" in schema) && !("const" in schema)) return { ...schema, type: [type, "null"] };
	if (Array.isArray(type) && !("enum" in schema) && !("const" in schema)) return { ...schema, type: [...type, "null"] };
	if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: [...schema.anyOf, { type: "null" }] };
	return { anyOf: [schema, { type: "null" }] };
}

function allowsNullDirectly(schema: Node): boolean {
	const type = schema.type;
	if (type === "null" || (Array.isArray(type) && type.includes("null"))) return true;
	if (Array.isArray(schema.anyOf) && schema.anyOf.some((branch) => isNode(branch) && allowsNullDirectly(branch))) return true;
	return Array.isArray(schema.enum) && schema.enum.includes(null);
}

function allowsNull(root: Node, schema: Node): boolean {
	const target = resolve(root, schema);
	return target !== undefined && (allowsNullDirectly(target) || Object.keys(target).length === 0);
}

/** Follows a local `$ref` (`#`, `#/$defs/x`, `#/definitions/x`); other nodes are returned as they are. */
function resolve(root: Node, node: Node): Node | undefined {
	const ref = node.$ref;
	if (typeof ref !== "string") return node;
	if (ref === "#") return root;
	const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
	if (!match) return undefined;
	const defs = root[match[1] as string];
	const target = isNode(defs) ? (defs as Record<string, unknown>)[decodeURIComponent(match[2] as string).replace(/~1/g, "/").replace(/~0/g, "~")] : undefined;
	return isNode(target) ? target : undefined;
}

function isObjectSchema(node: Node): boolean {
	const type = node.type;
	return type === "object" || (Array.isArray(type) && type.includes("object")) || (type === undefined && isNode(node.properties));
}

function isNode(value: unknown): value is Node {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Replaces each sub-schema of `node` (in place) by `map(child)`. */
function mapChildren(node: Node, path: string, map: (child: Node, path: string) => Node): void {
	for (const keyword of ONE) if (isNode(node[keyword])) node[keyword] = map(node[keyword] as Node, `${path}/${keyword}`);
	for (const keyword of MANY) {
		const list = node[keyword];
		if (Array.isArray(list)) node[keyword] = list.map((child, i) => (isNode(child) ? map(child, `${path}/${keyword}/${i}`) : child));
	}
	for (const keyword of MAP) {
		const entries = node[keyword];
		if (!isNode(entries)) continue;
		const mapped: Node = {};
		for (const [key, child] of Object.entries(entries)) mapped[key] = isNode(child) ? map(child, `${path}/${keyword}/${key}`) : child;
		node[keyword] = mapped;
	}
}

function forEachChild(node: Node, path: string, visit: (child: Node, path: string) => void): void {
	mapChildren({ ...node }, path, (child, childPath) => {
		visit(child, childPath);
		return child;
	});
}

function refuse(label: string, path: string, construct: string): never {
	throw new Error(`The output schema cannot be sent to ${label}: it has ${construct} at ${path}.`);
}
