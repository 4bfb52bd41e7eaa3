import { outputJsonSchema, outputName } from "../../structured-output/output-schema.js";
import { closedOutputSchema } from "../../structured-output/strict-output-schema.js";
import type { AnthropicMessagesCompat, Api, Model, OutputOptions } from "../../types.js";
import { supportsStructuredOutputs } from "./model-features.js";
import type { AnthropicRequestBody } from "./wire-types.js";

/**
 * Puts `output` in an Anthropic request body, and returns the name of the forced output tool when
 * one is used (the stream state turns that tool's input into the reply's text), else `undefined`.
 *
 * - Models with structured outputs (`supportsStructuredOutputs`, or
 *   `compat.supportsStructuredOutputs`): `output_config.format: { type: "json_schema", schema }`,
 *   the schema closed (`additionalProperties: false`); recursive schemas and maps are refused.
 * - Other models: one more tool, named `output.name` (default `output`), whose `input_schema` is
 *   the schema, and a `tool_choice` that makes the model call a tool: `{ type: "tool", name }`
 *   without other tools, `{ type: "any" }` with them (so it may still call those), unless the
 *   caller set `toolChoice`. With thinking on, the API takes no forced tool choice, so the choice
 *   stays the caller's (`auto` by default).
 *   The schema's root must be an object (a tool input is one).
 *
 * @example
 * const outputTool = applyOutput(body, model, { schema: Invoice, name: "invoice" }, false);
 */
export function applyOutput(body: AnthropicRequestBody, model: Model<Api>, output: OutputOptions, thinking: boolean): string | undefined {
	const schema = outputJsonSchema(output);
	const compat = model.compat as AnthropicMessagesCompat | undefined;
	const native = compat?.supportsStructuredOutputs ?? supportsStructuredOutputs(model.id);
	if (native) {
		const format = { type: "json_schema" as const, schema: closedOutputSchema(schema, "Anthropic structured outputs (output_config.format)") };
		body.output_config = { ...body.output_config, format };
		return undefined;
	}
	const name = outputName(output);
	if (schema.type !== "object") {
		throw new Error(`The output schema cannot be sent to Anthropic as a tool input (${model.id} has no structured outputs): it has a root that is not an object at #.`);
	}
	const tools = body.tools ?? [];
	if (tools.some((tool) => tool.name === name)) {
		throw new Error(`The output name "${name}" is also the name of a tool: pick another options.output.name.`);
	}
	const description = output.description ?? `Give your final answer as the input of this tool ("${name}"), and only then.`;
	body.tools = [...tools, { name, description, input_schema: schema }];
	// The caller's own `toolChoice` wins; thinking refuses a forced one.
	if (!thinking && body.tool_choice === undefined) body.tool_choice = tools.length > 0 ? { type: "any" } : { type: "tool", name };
	return name;
}
