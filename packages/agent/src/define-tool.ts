import type { Static, TSchema } from "typebox";
import type { AgentTool } from "./types.js";

/**
 * Returns `tool` unchanged; it exists for the type checker. A tool written inline in
 * `tools: [...]` is contextually typed as `AgentTool<any>`, so its `execute` arguments would be
 * `any`. Wrapped in `defineTool`, the schema type is inferred from `parameters` and `execute`
 * receives `Static<typeof parameters>`, and `details` is inferred from what `execute` returns.
 *
 * Costs nothing at run time (one function call, no copy).
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
// `TArguments` defaults to `Static<TParameters>` instead of being written as `Static<TParameters>`
// in the parameter type: inference then never relates two `Static` types to each other, which
// would make TypeScript measure `Static`'s variance (over a million instantiations). `NoInfer` in
// the return type stops the contextual `AgentTool<any>` of a `tools: [...]` list from inferring
// `TArguments = any`, which would untype the arguments again.
export function defineTool<TParameters extends TSchema, TDetails = unknown, TArguments = Static<TParameters>>(
	tool: AgentTool<TParameters, TDetails, TArguments>,
): AgentTool<TParameters, TDetails, NoInfer<TArguments>> {
	return tool;
}
