import {
	type AssistantMessage,
	type AssistantMessageBuilder,
	type Context,
	createProviderStream,
	fauxAssistantMessage,
	type Model,
	type SimpleStreamOptions,
} from "@pi/ai";
import type { StreamFn } from "../../src/index.js";

/** A model object for scripted tests; no provider is registered for it. */
export const testModel: Model<string> = {
	id: "scripted-1",
	name: "Scripted",
	api: "scripted",
	provider: "scripted",
	baseUrl: "scripted://local",
	reasoning: true,
	input: ["text", "image"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 100_000,
	maxTokens: 4_096,
};

/**
 * One scripted reply:
 * - an `AssistantMessage`: streamed block by block (text in two deltas), then finished with its stop reason;
 * - a function: called with the request, returns the reply (may be async, may throw);
 * - `{ stall: text }`: streams `text`, then waits until the request's signal aborts.
 */
export type Step =
	| AssistantMessage
	| ((context: Context, options: SimpleStreamOptions | undefined) => AssistantMessage | Promise<AssistantMessage>)
	| { stall: string; thinking?: boolean; onStalled?: () => void };

export interface ScriptedStreamFn extends StreamFn {
	/** The context of each call, as the model saw it (a copy of the messages array). */
	readonly contexts: Context[];
	readonly options: (SimpleStreamOptions | undefined)[];
	readonly pending: number;
}

/**
 * A `StreamFn` that plays `steps` in order through `createProviderStream` (so it honours abort
 * like a real provider). A call with no step left fails with an error reply.
 */
export function scriptedStream(steps: Step[]): ScriptedStreamFn {
	const queue = [...steps];
	const contexts: Context[] = [];
	const options: (SimpleStreamOptions | undefined)[] = [];
	const fn = ((model: Model<any>, context: Context, streamOptions?: SimpleStreamOptions) => {
		contexts.push({ ...context, messages: context.messages.slice() });
		options.push(streamOptions);
		const step = queue.shift();
		return createProviderStream(model, streamOptions, async (builder) => {
			if (!step) throw new Error("no scripted reply left");
			if ("stall" in step) {
				if (step.thinking) {
					const index = builder.startThinking();
					builder.appendThinking(index, step.stall);
				} else {
					const index = builder.startText();
					builder.appendText(index, step.stall);
				}
				step.onStalled?.();
				await new Promise<void>((resolve) => {
					const signal = streamOptions?.signal;
					if (signal?.aborted) resolve();
					signal?.addEventListener("abort", () => resolve(), { once: true });
				});
				return;
			}
			const message = typeof step === "function" ? await step(context, streamOptions) : step;
			await play(builder, message);
		});
	}) as unknown as ScriptedStreamFn;
	Object.defineProperty(fn, "contexts", { value: contexts });
	Object.defineProperty(fn, "options", { value: options });
	Object.defineProperty(fn, "pending", { get: () => queue.length });
	return fn;
}

/** Streams a message through the builder: each text in two deltas, tool arguments as JSON. */
export async function play(builder: AssistantMessageBuilder, message: AssistantMessage): Promise<void> {
	for (const block of message.content) {
		if (block.type === "text") {
			const index = builder.startText();
			const half = Math.ceil(block.text.length / 2);
			builder.appendText(index, block.text.slice(0, half));
			await Promise.resolve();
			builder.appendText(index, block.text.slice(half));
			builder.end(index);
		} else if (block.type === "thinking") {
			const index = builder.startThinking();
			builder.appendThinking(index, block.thinking);
			builder.end(index);
		} else {
			const index = builder.startToolCall(block.id, block.name);
			builder.appendToolCallArguments(index, JSON.stringify(block.arguments));
			builder.end(index);
		}
	}
	if (message.stopReason === "error") builder.finish("error", { errorMessage: message.errorMessage ?? "scripted error" });
	else if (message.stopReason === "aborted") builder.fail(new Error("aborted"), AbortSignal.abort());
	else if (message.stopReason === "pending") throw new Error("a scripted reply cannot be pending");
	else builder.finish(message.stopReason);
}

export { fauxAssistantMessage as reply };
