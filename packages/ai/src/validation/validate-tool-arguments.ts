import { toolArgumentsError } from "../assistant-message-builder.js";
import type { Tool, ToolCall } from "../types.js";
import { formatSchemaErrors } from "./format-schema-errors.js";
import { type CompiledSchema, schemaCompiler } from "./load-schema-compiler.js";

export { formatSchemaErrors } from "./format-schema-errors.js";

/** Validators compiled once per schema object. */
const compiled = new WeakMap<object, CompiledSchema>();

/**
 * Checks a tool call's arguments against the tool's schema (a typebox schema or any plain JSON
 * Schema, e.g. from an MCP server) and returns them.
 *
 * Throws an `Error` whose message a model can act on: the tool name, then one line per problem,
 * each naming the JSON path, e.g. `/city: expected string`. Arguments are not coerced. Arguments
 * whose streamed JSON was invalid (cut short or malformed; see `toolArgumentsError`) are refused
 * even when their best-effort partial value would match the schema.
 *
 * The first call loads typebox's schema compiler (about 90 ms, once); each schema is compiled
 * once and cached.
 *
 * @example
 * try { const args = validateToolArguments(tool, toolCall); }
 * catch (error) { // send (error as Error).message back to the model as an error tool result }
 */
export function validateToolArguments<T = Record<string, unknown>>(tool: Tool, toolCall: ToolCall): T {
	const schema = tool.parameters as unknown;
	if (typeof schema !== "object" || schema === null) {
		throw new TypeError(`Tool "${tool.name}" has no parameters schema (expected a JSON Schema object).`);
	}
	let validator = compiled.get(schema);
	if (!validator) {
		try {
			validator = schemaCompiler().Compile(schema);
		} catch (error) {
			const reason = error instanceof Error ? error.message : String(error);
			throw new Error(`Tool "${tool.name}" has an invalid parameters schema: ${reason}`, { cause: error });
		}
		compiled.set(schema, validator);
	}
	const args = toolCall.arguments;
	const jsonError = typeof args === "object" && args !== null ? toolArgumentsError(args) : undefined;
	if (jsonError !== undefined) {
		throw new Error(`Invalid arguments for tool "${tool.name}": the arguments were not valid JSON (${jsonError}).`);
	}
	if (validator.Check(args)) return args as T;
	const [, errors] = validator.Errors(args);
	const lines = formatSchemaErrors(errors);
	throw new Error(`Invalid arguments for tool "${tool.name}":\n${lines.map((line) => `  ${line}`).join("\n")}`);
}

/** Finds the tool a call names and validates its arguments; throws when no tool has that name. */
export function validateToolCall<T = Record<string, unknown>>(tools: readonly Tool[], toolCall: ToolCall): T {
	const tool = tools.find((candidate) => candidate.name === toolCall.name);
	if (!tool) {
		const names = tools.map((candidate) => `"${candidate.name}"`).join(", ") || "none";
		throw new Error(`Tool "${toolCall.name}" not found. Available tools: ${names}.`);
	}
	return validateToolArguments<T>(tool, toolCall);
}
