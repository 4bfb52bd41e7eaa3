import type { Tool } from "../../types.js";
import { toolJsonSchema } from "../../validation/tool-json-schema.js";
import type { GoogleOptions } from "./google-options.js";
import { toOpenApiSchema } from "./openapi-schema.js";
import type { GeminiFunctionCallingMode, GeminiFunctionDeclaration, GeminiRequest } from "./wire-types.js";

/**
 * Tools as Gemini function declarations, all in one `tools` entry:
 * `[{ functionDeclarations: [{ name, description, parametersJsonSchema }] }]`.
 *
 * A zod, valibot or arktype schema is sent as its own JSON Schema (`toolJsonSchema`): draft
 * 2020-12, or OpenAPI 3.0 for `parameters` where the library has that target.
 * With `field: "parametersJsonSchema"` (the default) the schema is sent unchanged: that field takes
 * full JSON Schema, so `$defs`, `anyOf` and `additionalProperties` keep their meaning. With
 * `field: "parameters"` it is converted to Google's OpenAPI subset by {@link toOpenApiSchema}, and
 * left out when the tool takes no arguments (Gemini rejects an `OBJECT` without properties).
 * Returns `undefined` when there are no tools.
 *
 * @example
 * convertTools([{ name: "now", description: "Current time", parameters: { type: "object", properties: {} } }]);
 * // [{ functionDeclarations: [{ name: "now", description: "Current time", parametersJsonSchema: { type: "object", properties: {} } }] }]
 */
export function convertTools(
	tools: readonly Tool[] | undefined,
	field: "parametersJsonSchema" | "parameters" = "parametersJsonSchema",
): GeminiRequest["tools"] {
	if (!tools || tools.length === 0) return undefined;
	const functionDeclarations = tools.map((tool): GeminiFunctionDeclaration => {
		const declaration: GeminiFunctionDeclaration = { name: tool.name, description: tool.description };
		if (field === "parametersJsonSchema") {
			declaration.parametersJsonSchema = toolJsonSchema(tool);
		} else {
			const parameters = toOpenApiSchema(toolJsonSchema(tool, "openapi-3.0"));
			const properties = parameters.properties as Record<string, unknown> | undefined;
			if (parameters.type !== "OBJECT" || (properties && Object.keys(properties).length > 0)) declaration.parameters = parameters;
		}
		return declaration;
	});
	return [{ functionDeclarations }];
}

/** `toolChoice` as Gemini's `functionCallingConfig.mode`. */
export function mapToolChoice(choice: NonNullable<GoogleOptions["toolChoice"]>): GeminiFunctionCallingMode {
	switch (choice) {
		case "any":
			return "ANY";
		case "none":
			return "NONE";
		default:
			return "AUTO";
	}
}
