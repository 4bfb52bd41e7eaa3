import type { Tool } from "../types.js";
import { type JsonSchemaObject, resolveSchema } from "./resolve-schema.js";
import type { JsonSchemaTarget } from "./standard-schema.js";

/**
 * The JSON Schema of a tool's `parameters` as a provider sends it: plain JSON, computed once per
 * schema object and target (see `resolveSchema`), and shared, so a provider copies before it
 * changes anything. A tool without parameters gets `{ type: "object", properties: {} }`. Throws
 * a `TypeError` naming the tool for a schema that cannot be sent (e.g. a Standard Schema without
 * `~standard.jsonSchema`); providers build requests inside the stream, so it ends as an `error`.
 *
 * @example
 * toolJsonSchema({ name: "weather", description: "…", parameters: z.object({ city: z.string() }) });
 * // { type: "object", properties: { city: { type: "string" } }, required: ["city"] }
 */
export function toolJsonSchema(tool: Tool, target?: JsonSchemaTarget): JsonSchemaObject {
	const schema: unknown = tool.parameters;
	if (schema === undefined || schema === null) return { type: "object", properties: {} };
	return resolveSchema(schema, `parameters schema of tool "${tool.name}"`).jsonSchema(target);
}
