/**
 * Type-level test, checked by `tsc` (the `typecheck` script), never run: a tool's `execute`
 * receives parameters typed from its typebox schema, and its result must match `TDetails`.
 */
import { Agent, type AgentTool, type AgentToolResult } from "@pi/agent-core";
import { Type } from "typebox";

const params = Type.Object({ city: Type.String(), days: Type.Optional(Type.Integer()) });

export const forecast: AgentTool<typeof params, { temperatures: number[] }> = {
	name: "forecast",
	label: "Forecast",
	description: "Daily temperatures for a city.",
	parameters: params,
	execute: async (_toolCallId, args, _signal, onUpdate) => {
		const city: string = args.city;
		const days: number | undefined = args.days;
		// @ts-expect-error: not a parameter of the schema.
		void args.country;
		onUpdate?.({ content: [{ type: "text", text: `Looking up ${city}…` }], details: { temperatures: [] } });
		const result: AgentToolResult<{ temperatures: number[] }> = {
			content: [{ type: "text", text: "12, 14" }],
			details: { temperatures: [12, 14].slice(0, days ?? 2) },
		};
		return result;
	},
};

export const wrongDetails: AgentTool<typeof params, { temperatures: number[] }> = {
	...forecast,
	// @ts-expect-error: details must match TDetails.
	execute: async () => ({ content: [], details: { temperatures: "warm" } }),
};

// A tool written as a plain object (no annotation) still fits a tool list: `AgentTool<any>`
// takes any arguments, where typebox's `Static<any>` alone would be `unknown`.
const plainTool = {
	name: "forecast",
	label: "Forecast",
	description: "Daily temperatures for a city.",
	parameters: params,
	execute: async (_id: string, args: { city: string }) => ({ content: [{ type: "text" as const, text: args.city }], details: {} }),
};
export const agentWithPlainTool = new Agent({ initialState: { tools: [plainTool, forecast] } });
