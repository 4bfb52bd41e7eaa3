/**
 * `streamProxy`: a `StreamFn` for apps whose LLM calls go through their own server, so that the
 * browser never holds a provider key. It posts the request to `${proxyUrl}/api/stream` with the
 * app's own token, and rebuilds the assistant message from the events the server streams back
 * (see proxy-events.ts and `handleProxyRequest` in `@pi/agent-core/proxy-server`).
 *
 * Browser-safe: fetch, streams and @pi/ai's HTTP seam only.
 */
import {
	type Api,
	AssistantMessageBuilder,
	type AssistantMessageEventStream,
	type Context,
	createProviderStream,
	isStandardSchema,
	type Model,
	postEventStream,
	resolveSchema,
	type SimpleStreamOptions,
	type TSchema,
} from "@pi/ai";
import type { ProxyAssistantMessageEvent } from "./proxy-events.js";

/** The options `streamProxy` forwards to the server; everything else stays local. */
type ForwardedOptions = Pick<
	SimpleStreamOptions,
	"temperature" | "maxTokens" | "reasoning" | "cacheRetention" | "sessionId" | "headers" | "metadata" | "transport" | "thinkingBudgets" | "maxRetryDelayMs" | "output"
>;

/** The names of {@link ForwardedOptions}, in the order they are sent. */
const FORWARDED: readonly (keyof ForwardedOptions)[] = [
	"temperature",
	"maxTokens",
	"reasoning",
	"cacheRetention",
	"sessionId",
	"headers",
	"metadata",
	"transport",
	"thinkingBudgets",
	"maxRetryDelayMs",
	"output",
];

export interface ProxyStreamOptions extends ForwardedOptions {
	/** Aborts the request; the stream then ends as `aborted`, keeping what arrived. */
	signal?: AbortSignal;
	/** The app's own token for its proxy server, sent as `Authorization: Bearer …`. Never a provider key. */
	authToken: string;
	/** The proxy server's origin, e.g. `https://genai.example.com`; the request goes to `/api/stream` under it. */
	proxyUrl: string;
	/** Fail when the server sends nothing for this long. Default 300 000 ms; 0 disables it. */
	idleTimeoutMs?: number;
}

/** The request body `streamProxy` sends: what the server needs to make the call itself. */
export interface ProxyRequestBody {
	model: Model<Api>;
	context: Context;
	options: ForwardedOptions;
}

/**
 * Streams one reply through the app's proxy server. Same contract as every stream function:
 * never throws; HTTP errors (with the server's `{ "error": … }` text), broken streams and
 * aborts end the stream with an `error`/`aborted` message that keeps the content so far.
 *
 * @example
 * const agent = new Agent({
 *   initialState: { model },
 *   streamFn: (model, context, options) =>
 *     streamProxy(model, context, { ...options, authToken: session.token, proxyUrl: "https://genai.example.com" }),
 * });
 */
export function streamProxy(model: Model<any>, context: Context, options: ProxyStreamOptions): AssistantMessageEventStream {
	// The auth token is treated as a secret: it is scrubbed from every error message.
	// With `output`, the rebuilt message is parsed and validated here too: `partialOutput` streams
	// in the browser, and `output` is set on the final message.
	return createProviderStream(model, { signal: options?.signal, apiKey: options?.authToken, output: options?.output }, async (builder) => {
		if (!options || typeof options.proxyUrl !== "string" || options.proxyUrl === "") {
			throw new TypeError("streamProxy: options.proxyUrl must be the proxy server's URL, e.g. https://genai.example.com");
		}
		const forwarded: ForwardedOptions = {};
		for (const key of FORWARDED) if (options[key] !== undefined) (forwarded as Record<string, unknown>)[key] = options[key];
		if (forwarded.output && isStandardSchema(forwarded.output.schema)) {
			forwarded.output = { ...forwarded.output, schema: resolveSchema(forwarded.output.schema, "options.output.schema").jsonSchema() as TSchema };
		}
		const body: ProxyRequestBody = { model, context: withJsonSchemas(context), options: forwarded };
		const events = postEventStream({
			url: `${options.proxyUrl.replace(/\/+$/, "")}/api/stream`,
			headers: { Authorization: `Bearer ${options.authToken}` },
			body,
			signal: options.signal,
			// The server retries the provider; retrying the whole proxied call here would double that.
			maxRetries: 0,
			idleTimeoutMs: options.idleTimeoutMs,
			secrets: [options.authToken],
		});
		const replay = new ProxyReplay(builder);
		for await (const event of events) {
			if (event.data === "[DONE]") break;
			if (replay.apply(parseEvent(event.data)) === "finished") return;
		}
		throw new Error("The proxy stream ended without a final event.");
	});
}

function parseEvent(data: string): ProxyAssistantMessageEvent {
	let event: unknown;
	try {
		event = JSON.parse(data);
	} catch {
		throw new Error(`The proxy sent an event that is not JSON: ${data.slice(0, 120)}`);
	}
	if (typeof event !== "object" || event === null || typeof (event as { type?: unknown }).type !== "string") {
		throw new Error(`The proxy sent an event without a type: ${data.slice(0, 120)}`);
	}
	return event as ProxyAssistantMessageEvent;
}

/**
 * Applies proxy events to the message builder, mapping the server's content indexes to the
 * builder's (they agree for a well-behaved server; the map keeps a misbehaving one from writing
 * into the wrong block).
 */
class ProxyReplay {
	private readonly blocks = new Map<number, { index: number; kind: "text" | "thinking" | "toolCall" }>();

	constructor(private readonly builder: AssistantMessageBuilder) {}

	apply(event: ProxyAssistantMessageEvent): "finished" | undefined {
		const builder = this.builder;
		switch (event.type) {
			case "start":
				return undefined; // the builder has pushed `start` already
			case "text_start":
				this.open(event.contentIndex, "text", builder.startText());
				return undefined;
			case "thinking_start":
				this.open(event.contentIndex, "thinking", builder.startThinking(event.redacted ? { redacted: true } : {}));
				return undefined;
			case "toolcall_start":
				this.open(event.contentIndex, "toolCall", builder.startToolCall(event.id, event.toolName));
				return undefined;
			case "text_delta":
				builder.appendText(this.block(event.contentIndex, "text"), event.delta);
				return undefined;
			case "thinking_delta":
				builder.appendThinking(this.block(event.contentIndex, "thinking"), event.delta);
				return undefined;
			case "toolcall_delta":
				builder.appendToolCallArguments(this.block(event.contentIndex, "toolCall"), event.delta);
				return undefined;
			case "text_end":
			case "thinking_end": {
				const index = this.block(event.contentIndex, event.type === "text_end" ? "text" : "thinking");
				if (event.contentSignature !== undefined) builder.setSignature(index, event.contentSignature);
				builder.end(index);
				return undefined;
			}
			case "toolcall_end": {
				const index = this.block(event.contentIndex, "toolCall");
				if (event.thoughtSignature !== undefined) builder.setSignature(index, event.thoughtSignature);
				builder.end(index);
				return undefined;
			}
			case "done":
			case "error":
				this.setUsage(event.usage);
				if (event.responseId !== undefined) builder.setResponseId(event.responseId);
				builder.setResponseModel(event.responseModel);
				if (event.type === "done") {
					builder.finish(event.reason, event.rawStopReason !== undefined ? { rawStopReason: event.rawStopReason } : {});
				} else if (event.reason === "aborted") {
					// Aborted on the server's side (its own timeout, a shutdown): still an abort.
					builder.fail(new Error(event.errorMessage ?? "Aborted by the proxy server."), AbortSignal.abort(event.errorMessage ?? "Aborted by the proxy server."));
				} else {
					builder.finish("error", { errorMessage: event.errorMessage ?? "The proxy server reported an error." });
				}
				return "finished";
			default:
				throw new Error(`The proxy sent an unknown event type "${(event as { type: string }).type}".`);
		}
	}

	private open(serverIndex: number, kind: "text" | "thinking" | "toolCall", index: number): void {
		this.blocks.set(serverIndex, { index, kind });
	}

	private block(serverIndex: number, kind: "text" | "thinking" | "toolCall"): number {
		const block = this.blocks.get(serverIndex);
		if (!block || block.kind !== kind) throw new Error(`The proxy sent a ${kind} event for content index ${serverIndex}, which is not an open ${kind} block.`);
		return block.index;
	}

	private setUsage(usage: { input?: number; output?: number; cacheRead?: number; cacheWrite?: number } | undefined): void {
		if (!usage) return;
		this.builder.setUsage({ input: usage.input, output: usage.output, cacheRead: usage.cacheRead, cacheWrite: usage.cacheWrite });
	}
}

/**
 * The context with each zod / valibot / arktype tool schema replaced by its JSON Schema: such a
 * schema is an object of functions that does not survive `JSON.stringify`, and the server only
 * needs what goes on the wire (the browser's `execute` validates with the library itself).
 */
function withJsonSchemas(context: Context): Context {
	if (!context.tools?.some((tool) => isStandardSchema(tool.parameters))) return context;
	const tools = context.tools.map((tool) =>
		isStandardSchema(tool.parameters) ? { ...tool, parameters: resolveSchema(tool.parameters, `parameters schema of tool "${tool.name}"`).jsonSchema() as TSchema } : tool,
	);
	return { ...context, tools };
}
