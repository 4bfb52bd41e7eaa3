/** The tools of the example: arithmetic that takes a little while, so that workers die inside tools too. */
import type { AgentTool } from "@pi/agent-core";
import { Type } from "@pi/ai/schema";

const pair = Type.Object({ a: Type.Number(), b: Type.Number() });

/** `add` and `multiply`; `onStart` is told when a tool starts (the crash test kills workers then). */
export function arithmeticTools(onStart: (toolName: string, toolCallId: string) => void = () => undefined): AgentTool<typeof pair>[] {
	const tool = (name: string, label: string, apply: (a: number, b: number) => number): AgentTool<typeof pair> => ({
		name,
		label,
		description: `${label}s two numbers.`,
		parameters: pair,
		execute: async (toolCallId, { a, b }) => {
			onStart(name, toolCallId);
			await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 60));
			const value = apply(a, b);
			return { content: [{ type: "text", text: String(value) }], details: { value } };
		},
	});
	return [tool("add", "Add", (a, b) => a + b), tool("multiply", "Multiply", (a, b) => a * b)];
}
