/**
 * Type-level test, checked by `tsc` (the `typecheck` script), never run: a tool's `execute`
 * receives parameters typed from its typebox schema, and its result must match `TDetails`.
 */
import { Agent, type AgentTool, type AgentToolResult, defineTool } from "@pi/agent-core";
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

// A tool written inline in `tools` gets typed arguments through `defineTool`: the schema is
// inferred from `parameters`, so `a` and `b` are numbers, not `any`, and `details` is inferred
// from what `execute` returns.
const inlineAdd = defineTool({
	name: "add",
	label: "Add",
	description: "Adds two numbers.",
	parameters: Type.Object({ a: Type.Number(), b: Type.Number() }),
	execute: async (_toolCallId, args) => {
		const { a, b } = args;
		const sum: number = a + b;
		// @ts-expect-error: `a` is a number, not a string (it is `any` without defineTool).
		const text: string = a;
		// @ts-expect-error: not a parameter of the schema.
		void args.c;
		return { content: [{ type: "text", text: `${text}` }], details: { sum } };
	},
});
const inlineSum: number = (await inlineAdd.execute("id", { a: 1, b: 2 })).details.sum;
// @ts-expect-error: the arguments are checked at the call site too.
void inlineAdd.execute("id", { a: 1, b: "2" });
export const agentWithInlineTool = new Agent({
	initialState: {
		tools: [
			defineTool({
				name: "negate",
				label: "Negate",
				description: "Negates a number.",
				parameters: Type.Object({ n: Type.Number() }),
				execute: async (_toolCallId, { n }) => {
					// @ts-expect-error: `n` is a number, not a string.
					const wrong: string = n;
					return { content: [{ type: "text", text: String(-n) + wrong }], details: { negated: -n } };
				},
			}),
			inlineAdd,
			forecast,
			plainTool,
		],
	},
});
export { inlineSum };

// `needsApproval`'s predicate gets the arguments typed from the schema, in `defineTool` too, and
// the context's call id and transcript; a tool with one still fits a tool list.
export const guarded = defineTool({
	name: "pay",
	label: "Pay",
	description: "Pays an amount.",
	parameters: Type.Object({ amount: Type.Number() }),
	needsApproval: (args, context) => {
		const amount: number = args.amount;
		const id: string = context.toolCallId;
		// @ts-expect-error: not a parameter of the schema.
		void args.currency;
		return amount > 100 || context.messages.length === 0 || id === "";
	},
	execute: async (_id, { amount }) => ({ content: [{ type: "text", text: `paid ${amount}` }], details: {} }),
});
export const flagged: AgentTool<typeof params> = { ...forecast, needsApproval: true };
// @ts-expect-error: needsApproval is a boolean or a predicate, not a string.
export const badFlag: AgentTool<typeof params> = { ...forecast, needsApproval: "yes" };
new Agent({ initialState: { tools: [guarded, flagged] } });
// A typed tool with a predicate fits a list typed `AgentTool[]`, as apps write it.
export const plainList: AgentTool[] = [guarded, forecast];
