import { AssistantMessageBuilder } from "./assistant-message-builder.js";
import { getApiProvider } from "./api-registry.js";
import type { AssistantMessageEventStream } from "./event-stream.js";
import { ensureBuiltinApiProviders } from "./providers/register-builtins.js";
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
	return drain(stream(model, context, options));
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
	return drain(streamSimple(model, context, options));
}

function dispatch(
	model: Model<Api>,
	context: Context,
	options: StreamOptions | undefined,
	kind: "stream" | "streamSimple",
): AssistantMessageEventStream {
	try {
		ensureBuiltinApiProviders();
		if (!model || typeof model !== "object") throw new TypeError("stream: `model` must be a Model object");
		assertContext(context);
		const provider = getApiProvider(model.api);
		if (!provider) {
			throw new Error(`No API provider registered for api "${model.api}" (model "${model.id}").`);
		}
		return provider[kind](model, context, options);
	} catch (error) {
		const builder = new AssistantMessageBuilder(
			model && typeof model === "object" ? model : unknownModel,
			[options?.apiKey],
		);
		builder.fail(error, options?.signal);
		return builder.stream;
	}
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

async function drain<TOutput>(events: OutputEventStream<TOutput>): Promise<AssistantMessage<TOutput>> {
	// Iterating (rather than only awaiting the result) releases each event as it is read.
	for await (const _event of events) {
		// nothing to do per event
	}
	return events.result();
}

const unknownModel: Model<Api> = {
	id: "unknown",
	name: "unknown",
	api: "unknown",
	provider: "unknown",
	baseUrl: "",
	reasoning: false,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 0,
	maxTokens: 0,
};
