import type { Tool } from "../../types.js";
import { toolJsonSchema } from "../../validation/tool-json-schema.js";
import type { ResponsesFunctionTool } from "./wire-types.js";

/**
 * Tool definitions as Responses `function` tools. The JSON Schema (a zod, valibot or arktype
 * schema's draft 2020-12 JSON Schema; see `toolJsonSchema`) is sent whole (`$defs`, `anyOf`,
 * `additionalProperties` and all), with `strict: false`: strict mode would reject optional
 * properties and most schemas that typebox or MCP servers produce.
 *
 * @example
 * convertTools([{ name: "add", description: "Adds", parameters: Type.Object({ a: Type.Number() }) }])
 * // [{ type: "function", name: "add", description: "Adds", parameters: { type: "object", … }, strict: false }]
 */
export function convertTools(tools: readonly Tool[]): ResponsesFunctionTool[] {
	return tools.map((tool) => ({
		type: "function",
		name: tool.name,
		description: tool.description,
		parameters: toolJsonSchema(tool),
		strict: false,
	}));
}
