/**
 * Type-level test, checked by `tsc` (the `typecheck` script), never run: `execute` receives the
 * output type of a zod, valibot or arktype schema (defaults filled, transforms applied), through
 * `defineTool` and through an `AgentTool<typeof schema>` annotation; a wrong property is an error.
 */
import { Agent, type AgentTool, defineTool } from "@pi/agent-core";
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import { z } from "zod";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(_value?: T): void {}

export const zodWeather = defineTool({
	name: "weather",
	label: "Weather",
	description: "Current weather in a city",
	parameters: z.object({ city: z.string().min(1), unit: z.enum(["c", "f"]).default("c"), days: z.coerce.number().optional(), stops: z.array(z.object({ at: z.string().transform((at) => new Date(at)) })) }),
	execute: async (_id, args) => {
		assertType<Equal<typeof args, { city: string; unit: "c" | "f"; days?: number | undefined; stops: { at: Date }[] }>>();
		const year: number | undefined = args.stops[0]?.at.getFullYear();
		// @ts-expect-error: not a property of the schema.
		void args.country;
		// @ts-expect-error: `unit` is "c" | "f", never undefined (the default fills it).
		const unit: undefined = args.unit;
		return { content: [{ type: "text", text: `${args.city}: 21°${args.unit} ${year}` }], details: { unit } };
	},
});

export const valibotWeather = defineTool({
	name: "weather",
	label: "Weather",
	description: "Current weather in a city",
	parameters: toStandardJsonSchema(v.object({ city: v.string(), unit: v.optional(v.picklist(["c", "f"]), "c") })),
	execute: async (_id, args) => {
		assertType<Equal<typeof args, { city: string; unit: "c" | "f" }>>();
		// @ts-expect-error: not a property of the schema.
		void args.country;
		return { content: [{ type: "text", text: args.city }], details: {} };
	},
});

const arkParameters = type({ city: "string", "days?": "number", unit: "'c' | 'f' = 'c'" });
export const arkWeather: AgentTool<typeof arkParameters, { city: string }> = {
	name: "weather",
	label: "Weather",
	description: "Current weather in a city",
	parameters: arkParameters,
	execute: async (_id, args) => {
		assertType<Equal<typeof args, { city: string; days?: number; unit: "c" | "f" }>>();
		// @ts-expect-error: not a property of the schema.
		void args.country;
		// @ts-expect-error: `city` is a string.
		const city: number = args.city;
		void city;
		return { content: [{ type: "text", text: args.city }], details: { city: args.city } };
	},
};

// Tools of every library fit one list.
export const agent = new Agent({ initialState: { tools: [zodWeather, valibotWeather, arkWeather] } });
