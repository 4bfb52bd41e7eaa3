import { toolArgumentsError } from "../assistant-message-builder.js";
import type { Tool, ToolCall } from "../types.js";
import { resolveSchema, type SchemaValidation } from "./resolve-schema.js";

export { formatSchemaErrors } from "./format-schema-errors.js";

/**
 * Checks a tool call's arguments against the tool's schema and returns the value `execute`
 * should get. The schema is a typebox schema, any plain JSON Schema (e.g. from an MCP server), or
 * a Standard Schema with a JSON Schema converter (zod, valibot, arktype; see `resolveSchema`).
 *
 * - typebox / JSON Schema: the arguments themselves; they are not coerced.
 * - Standard Schema: the library's output value (defaults filled, transforms and coercions
 *   applied). A validator that answers with a promise is refused here: use
 *   {@link parseToolArguments}, which awaits it.
 *
 * Throws an `Error` whose message a model can act on: the tool name, then one line per problem,
 * each naming the JSON path, e.g. `/city: expected string`. Arguments whose streamed JSON was
 * invalid (cut short or malformed; see `toolArgumentsError`) are refused even when their
 * best-effort partial value would match the schema.
 *
 * The first typebox validation loads typebox's schema compiler (about 90 ms, once); each schema
 * is resolved once and cached.
 *
 * @example
 * try { const args = validateToolArguments(tool, toolCall); }
 * catch (error) { // send (error as Error).message back to the model as an error tool result }
 */
export function validateToolArguments<T = Record<string, unknown>>(tool: Tool, toolCall: ToolCall): T {
	const checked = checkArguments(tool, toolCall);
	if (checked instanceof Promise) {
		throw new Error(`Tool "${tool.name}" validates its arguments asynchronously: call parseToolArguments (which awaits it) instead of validateToolArguments.`);
	}
	return argumentsOrThrow<T>(tool, checked);
}

/**
 * {@link validateToolArguments}, awaiting a validator that answers with a promise (an async
 * refinement in zod, `pipeAsync` in valibot). Resolves to the value `execute` should get; rejects
 * with the same model-readable `Error`.
 *
 * @example
 * const args = await parseToolArguments(tool, toolCall); // zod: defaults and transforms applied
 */
export async function parseToolArguments<T = Record<string, unknown>>(tool: Tool, toolCall: ToolCall): Promise<T> {
	return argumentsOrThrow<T>(tool, await checkArguments(tool, toolCall));
}

function checkArguments(tool: Tool, toolCall: ToolCall): SchemaValidation | Promise<SchemaValidation> {
	const schema = tool.parameters as unknown;
	if ((typeof schema !== "object" && typeof schema !== "function") || schema === null) {
		throw new TypeError(`Tool "${tool.name}" has no parameters schema (expected a JSON Schema object).`);
	}
	let resolved: ReturnType<typeof resolveSchema>;
	try {
		resolved = resolveSchema(schema, `parameters schema of tool "${tool.name}"`);
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		throw new Error(`Tool "${tool.name}" has an invalid parameters schema: ${reason}`, { cause: error });
	}
	const args = toolCall.arguments;
	const jsonError = typeof args === "object" && args !== null ? toolArgumentsError(args) : undefined;
	if (jsonError !== undefined) {
		throw new Error(`Invalid arguments for tool "${tool.name}": the arguments were not valid JSON (${jsonError}).`);
	}
	try {
		return resolved.validate(args);
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		throw new Error(`Tool "${tool.name}" has an invalid parameters schema: ${reason}`, { cause: error });
	}
}

function argumentsOrThrow<T>(tool: Tool, checked: SchemaValidation): T {
	if (checked.ok) return checked.value as T;
	throw new Error(`Invalid arguments for tool "${tool.name}":\n${checked.problems.map((line) => `  ${line}`).join("\n")}`);
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
