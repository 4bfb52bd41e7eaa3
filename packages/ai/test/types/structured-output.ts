/**
 * Type-level test (compiled by `tsc -p tsconfig.json`, never run): `reply.output` is typed from
 * the output schema at the call site, for all four entry points, and stays `unknown` without one.
 */
import { Type } from "typebox";
import { complete, completeSimple, stream, streamSimple } from "../../src/stream.js";
import type { AssistantMessage, Context, Model } from "../../src/types.js";

declare const model: Model<"openai-completions">;
declare const context: Context;

const Invoice = Type.Object({
	vendor: Type.String(),
	total: Type.Number(),
	lines: Type.Array(Type.Object({ item: Type.String(), amount: Type.Number() })),
	note: Type.Optional(Type.String()),
});

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(_value?: T): void {}

type Expected = { vendor: string; total: number; lines: { item: string; amount: number }[]; note?: string } | undefined;

export async function typedOutputs(): Promise<void> {
	const reply = await complete(model, context, { output: { schema: Invoice, name: "invoice" } });
	assertType<Equal<typeof reply.output, Expected>>();
	const total: number | undefined = reply.output?.total;
	// @ts-expect-error: `vendor` is a string, not a number.
	const wrong: number | undefined = reply.output?.vendor;

	const simple = await completeSimple(model, context, { output: { schema: Invoice }, reasoning: "low" });
	assertType<Equal<typeof simple.output, Expected>>();

	const streamed = await stream(model, context, { output: { schema: Invoice }, temperature: 0 }).result();
	assertType<Equal<typeof streamed.output, Expected>>();
	const streamedSimple = await streamSimple(model, context, { output: { schema: Invoice } }).result();
	assertType<Equal<typeof streamedSimple.output, Expected>>();

	// Without `output`, the message is the plain AssistantMessage.
	const plain = await complete(model, context);
	assertType<Equal<typeof plain.output, unknown>>();
	const assignable: AssistantMessage = reply;
	void [total, wrong, assignable];
}
