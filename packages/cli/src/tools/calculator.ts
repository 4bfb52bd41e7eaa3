import type { AgentTool, AgentToolResult } from "@pi/agent-core";
import type { TSchema } from "@pi/ai";

/** The arguments of {@link calculatorTool}. */
interface CalculatorArguments {
	a: number;
	b: number;
	op?: "+" | "-" | "*" | "/";
}

/**
 * `--tool calculator`: adds, subtracts, multiplies or divides two numbers (the design document's
 * tool). Its schema is plain JSON Schema, so no typebox builder loads with it.
 */
export const calculatorTool: AgentTool<TSchema, { expression: string }> = {
	name: "calculator",
	label: "Calculator",
	description: "Adds, subtracts, multiplies or divides two numbers. Use it for any arithmetic.",
	parameters: {
		type: "object",
		properties: {
			a: { type: "number", description: "The first operand" },
			b: { type: "number", description: "The second operand" },
			op: { type: "string", enum: ["+", "-", "*", "/"], description: "The operation; default +" },
		},
		required: ["a", "b"],
	} as unknown as TSchema,
	async execute(_toolCallId, params): Promise<AgentToolResult<{ expression: string }>> {
		// The loop validated params against the schema before calling execute.
		const { a, b, op = "+" } = params as CalculatorArguments;
		if (op === "/" && b === 0) throw new Error("division by zero");
		const value = op === "-" ? a - b : op === "*" ? a * b : op === "/" ? a / b : a + b;
		return { content: [{ type: "text", text: String(value) }], details: { expression: `${a} ${op} ${b}` } };
	},
};
