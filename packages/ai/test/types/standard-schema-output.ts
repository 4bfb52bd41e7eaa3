/**
 * Type-level test (compiled by `tsc -p tsconfig.json`, never run): `reply.output` and a tool's
 * arguments are typed from zod, valibot and arktype schemas (their output type, after defaults
 * and transforms), as from typebox; a property the schema does not have is a type error.
 */
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import { Type } from "typebox";
import * as v from "valibot";
import { z } from "zod";
import { complete, stream } from "../../src/stream.js";
import type { Context, Model, SchemaOutput, Tool, ToolArguments, ToolSchema } from "../../src/index.js";

declare const model: Model<"anthropic-messages">;
declare const context: Context;

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(_value?: T): void {}

const ZodInvoice = z.object({ vendor: z.string(), total: z.coerce.number(), currency: z.enum(["EUR", "USD"]).default("EUR"), note: z.string().optional() });
const ValibotInvoice = toStandardJsonSchema(v.object({ vendor: v.string(), total: v.number(), currency: v.optional(v.picklist(["EUR", "USD"]), "EUR"), note: v.optional(v.string()) }));
const ArkInvoice = type({ vendor: "string", total: "number", currency: "'EUR' | 'USD' = 'EUR'", "note?": "string" });
const TypeboxInvoice = Type.Object({ vendor: Type.String(), total: Type.Number() });

type Invoice = { vendor: string; total: number; currency: "EUR" | "USD"; note?: string | undefined };

export async function outputs(): Promise<void> {
	const zodReply = await complete(model, context, { output: { schema: ZodInvoice } });
	assertType<Equal<typeof zodReply.output, Invoice | undefined>>();
	// @ts-expect-error: not a property of the schema.
	void zodReply.output?.vendorName;
	// @ts-expect-error: `total` is a number.
	const zodWrong: string | undefined = zodReply.output?.total;

	const valibotReply = await stream(model, context, { output: { schema: ValibotInvoice } }).result();
	const valibotTotal: number | undefined = valibotReply.output?.total;
	const valibotCurrency: "EUR" | "USD" | undefined = valibotReply.output?.currency;
	// @ts-expect-error: not a property of the schema.
	void valibotReply.output?.vendorName;

	const arkReply = await complete(model, context, { output: { schema: ArkInvoice, name: "invoice" } });
	const arkVendor: string | undefined = arkReply.output?.vendor;
	const arkCurrency: "EUR" | "USD" | undefined = arkReply.output?.currency;
	// @ts-expect-error: not a property of the schema.
	void arkReply.output?.vendorName;

	const typeboxReply = await complete(model, context, { output: { schema: TypeboxInvoice } });
	assertType<Equal<typeof typeboxReply.output, { vendor: string; total: number } | undefined>>();

	void [zodWrong, valibotTotal, valibotCurrency, arkVendor, arkCurrency];
}

// Tools: the arguments type is the schema's output type; a transform changes it.
const zodTool = { name: "lookup", description: "Look up", parameters: z.object({ isbn: z.string().transform((isbn) => isbn.length), copies: z.number().default(1) }) } satisfies Tool<ToolSchema>;
assertType<Equal<ToolArguments<typeof zodTool>, { isbn: number; copies: number }>>();
assertType<Equal<SchemaOutput<typeof ArkInvoice>, { vendor: string; total: number; currency: "EUR" | "USD"; note?: string }>>();
assertType<Equal<SchemaOutput<typeof TypeboxInvoice>, { vendor: string; total: number }>>();
export const context2: Context = { messages: [], tools: [zodTool, { name: "plain", description: "Plain", parameters: TypeboxInvoice }] };
