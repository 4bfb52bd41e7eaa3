import type { Tool } from "../../types.js";
import { toolJsonSchema } from "../../validation/tool-json-schema.js";
import type { AnthropicTool, AnthropicToolChoice } from "./wire-types.js";

/** Which tools the model may or must call; see {@link convertToolChoice}. */
export type AnthropicToolChoiceOption = "auto" | "any" | "none" | { type: "tool"; name: string };

/**
 * Converts tools to Anthropic tool definitions: `{ name, description, input_schema }`, plus
 * `eager_input_streaming: true` when `eagerInputStreaming` is set (fine-grained tool streaming:
 * the input streams as the model writes it, unbuffered and unvalidated). The schema (a zod,
 * valibot or arktype schema's draft 2020-12 JSON Schema; see `toolJsonSchema`) is sent whole (`$defs`, `anyOf`, `additionalProperties`, `required`, … are kept; typebox's internal
 * symbol keys vanish in JSON). The API requires `input_schema.type` to be `"object"`; a schema
 * without any `type` gets it.
 *
 * @example
 * convertTools([{ name: "now", description: "Current time", parameters: Type.Object({}) }])
 * // [{ name: "now", description: "Current time", input_schema: { type: "object", properties: {} } }]
 */
export function convertTools(tools: readonly Tool[], options: { eagerInputStreaming?: boolean } = {}): AnthropicTool[] {
	return tools.map((tool) => {
		const schema = toolJsonSchema(tool);
		const inputSchema = schema.type !== undefined ? schema : { type: "object", ...schema };
		const definition: AnthropicTool = { name: tool.name, description: tool.description, input_schema: inputSchema };
		if (options.eagerInputStreaming) definition.eager_input_streaming = true;
		return definition;
	});
}

/**
 * Converts the `toolChoice` option: `"auto"` (the model decides), `"any"` (it must call some
 * tool), `"none"` (it must not), or `{ type: "tool", name }` (it must call that one).
 *
 * @example
 * convertToolChoice("any") // { type: "any" }
 */
export function convertToolChoice(choice: AnthropicToolChoiceOption): AnthropicToolChoice {
	if (typeof choice === "object") return { type: "tool", name: choice.name };
	return { type: choice };
}
