import { Type } from "typebox";
import type { AgentTool, AgentToolResult } from "../../src/index.js";

export const addParams = Type.Object({ a: Type.Number(), b: Type.Number() });

/** `add(a, b)`: returns the sum; counts its calls. */
export function addTool(): AgentTool<typeof addParams, { sum: number }> & { calls: number } {
	const tool = {
		name: "add",
		label: "Add",
		description: "Adds two numbers.",
		parameters: addParams,
		calls: 0,
		execute: async (_id: string, { a, b }: { a: number; b: number }) => {
			tool.calls++;
			return { content: [{ type: "text" as const, text: String(a + b) }], details: { sum: a + b } };
		},
	};
	return tool;
}

export const echoParams = Type.Object({ text: Type.String() });

/**
 * `name(text)`: returns `text` after `run` settles. `run` gets the call's signal; the default
 * resolves at once.
 */
export function customTool(
	name: string,
	run: (params: { text: string }, signal: AbortSignal | undefined, onUpdate: ((partial: AgentToolResult<unknown>) => void) | undefined) => Promise<AgentToolResult<unknown> | void> | AgentToolResult<unknown> | void = () => undefined,
	extra: Partial<AgentTool<typeof echoParams>> = {},
): AgentTool<typeof echoParams> {
	return {
		name,
		label: name,
		description: `The ${name} tool.`,
		parameters: echoParams,
		...extra,
		execute: async (_id, params, signal, onUpdate) => {
			const result = await run(params, signal, onUpdate);
			return result ?? { content: [{ type: "text", text: params.text }], details: { echoed: params.text } };
		},
	};
}
