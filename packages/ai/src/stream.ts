import { finalMessage, guardedStream, providerFor } from "./entry-point.js";
import type { AssistantMessageEventStream } from "./event-stream.js";
import type {
	Api,
	AssistantMessage,
	Context,
	Model,
	OutputEventStream,
	ProviderStreamOptions,
	SimpleStreamOptions,
	StreamOptions,
	TSchema,
	TypedOutputOption,
} from "./types.js";
import type { SchemaOutput, ToolSchema } from "./validation/standard-schema.js";

/**
 * Streams one assistant reply from `model` with the provider's full options.
 *
 * Never throws: an unknown api, a missing key or any failure becomes a final `error` (or
 * `aborted`) message on the returned stream.
 *
 * @example
 * const s = stream(getModel("openai", "gpt-4o")!, { messages: [{ role: "user", content: "Hi", timestamp: Date.now() }] });
 * for await (const event of s) if (event.type === "text_delta") process.stdout.write(event.delta);
 * const message = await s.result();
 *
 * With `options.output` the reply is structured output (docs/structured-output.md): `text_delta`
 * events carry `partialOutput`, and `result()` resolves to a message whose `output` is typed
 * from the schema.
 */
export function stream<TApi extends Api, TOutputSchema extends ToolSchema = TSchema>(
	model: Model<TApi>,
	context: Context,
	options?: ProviderStreamOptions & TypedOutputOption<TOutputSchema>,
): OutputEventStream<SchemaOutput<TOutputSchema>> {
	return dispatch(model, context, options, "stream") as OutputEventStream<SchemaOutput<TOutputSchema>>;
}

/** Like {@link stream}, resolving to the final message. Never rejects. */
export function complete<TApi extends Api, TOutputSchema extends ToolSchema = TSchema>(
	model: Model<TApi>,
	context: Context,
	options?: ProviderStreamOptions & TypedOutputOption<TOutputSchema>,
): Promise<AssistantMessage<SchemaOutput<TOutputSchema>>> {
	return finalMessage(stream(model, context, options));
}

/**
 * Streams one reply with the options common to every provider, plus `reasoning` (a thinking
 * level that each provider maps to its own setting) and `thinkingBudgets`.
 */
export function streamSimple<TApi extends Api, TOutputSchema extends ToolSchema = TSchema>(
	model: Model<TApi>,
	context: Context,
	options?: SimpleStreamOptions & TypedOutputOption<TOutputSchema>,
): OutputEventStream<SchemaOutput<TOutputSchema>> {
	return dispatch(model, context, options, "streamSimple") as OutputEventStream<SchemaOutput<TOutputSchema>>;
}

/** Like {@link streamSimple}, resolving to the final message. Never rejects. */
export function completeSimple<TApi extends Api, TOutputSchema extends ToolSchema = TSchema>(
	model: Model<TApi>,
	context: Context,
	options?: SimpleStreamOptions & TypedOutputOption<TOutputSchema>,
): Promise<AssistantMessage<SchemaOutput<TOutputSchema>>> {
	return finalMessage(streamSimple(model, context, options));
}

function dispatch(
	model: Model<Api>,
	context: Context,
	options: StreamOptions | undefined,
	kind: "stream" | "streamSimple",
): AssistantMessageEventStream {
	return guardedStream(model, options, () => {
		const provider = providerFor(model, "stream");
		assertContext(context);
		return provider[kind](model, context, options);
	});
}

const ROLES = new Set(["user", "assistant", "toolResult"]);

/** Catches malformed contexts before a provider does, with an error that says where. */
function assertContext(context: Context): void {
	if (!context || typeof context !== "object" || !Array.isArray(context.messages)) {
		throw new TypeError("stream: `context.messages` must be an array of messages");
	}
	const messages = context.messages;
	for (let i = 0; i < messages.length; i++) {
		const message = messages[i] as { role?: unknown; content?: unknown } | null | undefined;
		if (!message || typeof message !== "object") throw new TypeError(`stream: context.messages[${i}] is not a message object`);
		if (!ROLES.has(message.role as string)) {
			const hint = message.role === "system" ? " (put the system prompt in `context.systemPrompt`)" : "";
			throw new TypeError(
				`stream: context.messages[${i}] has role ${JSON.stringify(message.role)}; expected "user", "assistant" or "toolResult"${hint}`,
			);
		}
		if (typeof message.content !== "string" && !Array.isArray(message.content)) {
			throw new TypeError(`stream: context.messages[${i}].content must be a string or an array of content blocks`);
		}
	}
	if (context.tools !== undefined && !Array.isArray(context.tools)) throw new TypeError("stream: `context.tools` must be an array when given");
}
