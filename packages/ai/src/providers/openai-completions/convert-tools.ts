import type { Tool } from "../../types.js";
import { toolJsonSchema } from "../../validation/tool-json-schema.js";
import type { WireTool } from "./wire-types.js";

/**
 * Converts tools to Chat Completions function tools. The parameters schema is sent as plain JSON
 * (a zod, valibot or arktype schema as its draft 2020-12 JSON Schema; see `toolJsonSchema`):
 * `$defs`, `$ref`, `additionalProperties`, `anyOf`/`oneOf`/`allOf` and everything else are kept
 * (typebox schemas are plain JSON Schema objects).
 *
 * `strict` is sent only when `supportsStrictMode` is true, with the value of `strict` (default
 * `false`: OpenAI's strict mode demands every property be required and `additionalProperties:
 * false`, which most schemas are not).
 *
 * @example
 * convertTools([{ name: "get_weather", description: "Weather", parameters: schema }], { supportsStrictMode: false })
 * // [{ type: "function", function: { name: "get_weather", description: "Weather", parameters: schema } }]
 */
export function convertTools(
	tools: readonly Tool[],
	options: { supportsStrictMode: boolean; strict?: boolean },
): WireTool[] {
	return tools.map((tool) => {
		const wire: WireTool = {
			type: "function",
			function: { name: tool.name, description: tool.description, parameters: toolJsonSchema(tool) },
		};
		if (options.supportsStrictMode) wire.function.strict = options.strict ?? false;
		return wire;
	});
}

