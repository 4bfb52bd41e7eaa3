import { isStandardSchema, resolveSchema, type SchemaOutput, type ToolSchema } from "@pi/ai";
import type { AgentTool } from "./types.js";

/**
 * Returns `tool` unchanged; it exists mostly for the type checker. A tool written inline in
 * `tools: [...]` is contextually typed as `AgentTool<any>`, so its `execute` arguments would be
 * `any`. Wrapped in `defineTool`, the schema type is inferred from `parameters` and `execute`
 * receives the schema's output type (`Static<typeof parameters>` for typebox,
 * `StandardSchemaV1.InferOutput` for zod, valibot or arktype), and `details` is inferred from
 * what `execute` returns.
 *
 * A Standard Schema without a JSON Schema converter (`~standard.jsonSchema`) is refused here,
 * with a `TypeError` naming the library and how to get one (valibot: `toStandardJsonSchema` from
 * `@valibot/to-json-schema`). Otherwise costs nothing at run time (one function call, no copy;
 * the JSON Schema is made on the first request, once per schema object).
 *
 * @example
 * ```ts
 * const agent = new Agent({
 *   initialState: {
 *     tools: [
 *       defineTool({
 *         name: "add", label: "Add", description: "Adds two numbers.",
 *         parameters: Type.Object({ a: Type.Number(), b: Type.Number() }),
 *         execute: async (_id, { a, b }) => ({ content: [{ type: "text", text: String(a + b) }], details: { sum: a + b } }),
 *       }),
 *     ],
 *   },
 * });
 * ```
 */
// `TArguments` defaults to `SchemaOutput<TParameters>` instead of being written as such
// in the parameter type: inference then never relates two `Static` types to each other, which
// would make TypeScript measure `Static`'s variance (over a million instantiations). `NoInfer` in
// the return type stops the contextual `AgentTool<any>` of a `tools: [...]` list from inferring
// `TArguments = any`, which would untype the arguments again.
export function defineTool<TParameters extends ToolSchema, TDetails = unknown, TArguments = SchemaOutput<TParameters>>(
	tool: AgentTool<TParameters, TDetails, TArguments>,
): AgentTool<TParameters, TDetails, NoInfer<TArguments>> {
	if (isStandardSchema(tool.parameters)) resolveSchema(tool.parameters, `parameters schema of tool "${tool.name}"`);
	return tool;
}
