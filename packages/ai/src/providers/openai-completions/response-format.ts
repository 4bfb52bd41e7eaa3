import { outputInstruction, outputJsonSchema, outputName } from "../../structured-output/output-schema.js";
import { strictOutputSchema } from "../../structured-output/strict-output-schema.js";
import type { Context, OutputOptions } from "../../types.js";
import type { ResolvedOpenAICompletionsCompat } from "./detect-compat.js";
import type { WireResponseFormat } from "./wire-types.js";

/**
 * Whether `output` goes out in OpenAI strict mode on this server (`json_schema` with
 * `strict: true`, the schema adapted): servers with `supportsStrictMode` (OpenAI, Azure).
 */
export function usesStrictOutput(compat: ResolvedOpenAICompletionsCompat): boolean {
	return compat.structuredOutput === "json_schema" && compat.supportsStrictMode;
}

/**
 * The `response_format` for `output` (see `OpenAICompletionsCompat.structuredOutput`):
 *
 * - `json_schema` on a strict-mode server: `{ type: "json_schema", json_schema: { name, description?,
 *   schema, strict: true } }` with the schema in strict form (throws, naming the construct, for a
 *   schema strict mode cannot take);
 * - `json_schema` elsewhere: the same without `strict`, the schema as written;
 * - `json_object`: `{ type: "json_object" }`; the schema goes in the system prompt
 *   ({@link outputContext}).
 *
 * @example
 * responseFormat({ schema: Type.Object({ a: Type.String() }), name: "thing" }, detectCompat(openAIModel))
 * // { type: "json_schema", json_schema: { name: "thing", schema: { …, additionalProperties: false }, strict: true } }
 */
export function responseFormat(output: OutputOptions, compat: ResolvedOpenAICompletionsCompat): WireResponseFormat {
	const schema = outputJsonSchema(output);
	if (compat.structuredOutput === "json_object") return { type: "json_object" };
	const strict = usesStrictOutput(compat);
	return {
		type: "json_schema",
		json_schema: {
			name: outputName(output),
			...(output.description !== undefined ? { description: output.description } : {}),
			schema: strict ? strictOutputSchema(schema, "OpenAI strict mode (response_format)") : schema,
			...(strict ? { strict: true } : {}),
		},
	};
}

/**
 * The context to convert: for `json_object` servers, the system prompt gains the schema (JSON mode
 * constrains the reply to JSON, not to a schema, and DeepSeek wants the word "json" in the prompt).
 * Otherwise `context` itself.
 */
export function outputContext(context: Context, output: OutputOptions | undefined, compat: ResolvedOpenAICompletionsCompat): Context {
	if (!output || compat.structuredOutput !== "json_object") return context;
	const instruction = outputInstruction(output);
	return { ...context, systemPrompt: context.systemPrompt ? `${context.systemPrompt}\n\n${instruction}` : instruction };
}
