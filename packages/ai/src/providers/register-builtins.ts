import { type ApiProvider, clearApiProviders, getApiProvider, registerApiProvider } from "../api-registry.js";
import { AssistantMessageBuilder } from "../assistant-message-builder.js";
import { AssistantMessageEventStream } from "../event-stream.js";
import { adoptStream } from "../provider-stream.js";
import type {
	Api,
	Context,
	DeferredCancelFunction,
	DeferredCancelOptions,
	DeferredFetchOptions,
	DeferredHandle,
	DeferredStreamFunction,
	Model,
	SimpleStreamOptions,
	StreamFunction,
	StreamOptions,
} from "../types.js";

type StreamFunctions = Pick<ApiProvider, "stream" | "streamSimple" | "streamDeferred" | "cancelDeferred">;
type Loader = () => Promise<StreamFunctions>;

/**
 * A provider module's two stream functions, typed for the registry. A provider's functions take
 * its own model and option types; the registry only ever hands them models of their own api.
 */
function functions<TApi extends Api, TOptions extends StreamOptions>(
	stream: StreamFunction<TApi, TOptions>,
	streamSimple: StreamFunction<TApi, SimpleStreamOptions>,
	deferred?: { streamDeferred: DeferredStreamFunction<TApi>; cancelDeferred: DeferredCancelFunction<TApi> },
): StreamFunctions {
	return { stream, streamSimple, ...deferred } as unknown as StreamFunctions;
}

/**
 * The built-in wire APIs. Each provider module loads on its first call, so importing `@pi/ai`
 * costs only this table. To add a provider: write `providers/<api>.ts` exporting its stream
 * functions, and add one line here.
 */
const builtins: Record<string, Loader> = {
	"openai-completions": () => import("./openai-completions.js").then((m) => functions(m.streamOpenAICompletions, m.streamSimpleOpenAICompletions)),
	"openai-responses": () =>
		import("./openai-responses.js").then((m) =>
			functions(m.streamOpenAIResponses, m.streamSimpleOpenAIResponses, {
				streamDeferred: m.streamDeferredOpenAIResponses,
				cancelDeferred: m.cancelDeferredOpenAIResponses,
			}),
		),
	"anthropic-messages": () =>
		import("./anthropic-messages.js").then((m) =>
			functions(m.streamAnthropic, m.streamSimpleAnthropic, { streamDeferred: m.streamDeferredAnthropic, cancelDeferred: m.cancelDeferredAnthropic }),
		),
	"google-generative-ai": () =>
		import("./google-generative-ai.js").then((m) =>
			functions(m.streamGoogle, m.streamSimpleGoogle, { streamDeferred: m.streamDeferredGoogle, cancelDeferred: m.cancelDeferredGoogle }),
		),
};

/** The built-in APIs that can finish replies later. */
const DEFERRING_APIS = new Set(["openai-responses", "anthropic-messages", "google-generative-ai"]);

export const BUILTIN_SOURCE_ID = "@pi/ai/builtins";
let registered = false;

/** Registers the built-in providers once, unless the user registered their own for that api. */
export function ensureBuiltinApiProviders(): void {
	if (registered) return;
	registered = true;
	registerBuiltInApiProviders();
}

/**
 * Registers every built-in provider whose api has no registration yet (a provider the user
 * registered for one of those apis is kept). Called automatically on the first `stream` call;
 * call it again after `clearApiProviders()` to bring the built-ins back.
 *
 * @example
 * clearApiProviders();
 * registerBuiltInApiProviders();
 */
export function registerBuiltInApiProviders(): void {
	registered = true;
	for (const [api, load] of Object.entries(builtins)) {
		if (getApiProvider(api)) continue;
		registerApiProvider(lazyProvider(api, load), BUILTIN_SOURCE_ID);
	}
}

/**
 * The earlier spelling of {@link registerBuiltInApiProviders}, kept as an alias so that code
 * written against it compiles.
 *
 * @deprecated Use `registerBuiltInApiProviders` (the reference's spelling); this alias is the same function.
 */
export const registerBuiltinApiProviders: () => void = registerBuiltInApiProviders;

/**
 * Removes every registered provider, the user's included, and registers the built-ins again:
 * the registry as it is after import. Same name as in `@mariozechner/pi-ai`.
 */
export function resetApiProviders(): void {
	clearApiProviders();
	registerBuiltInApiProviders();
}

/**
 * The stream function of one built-in api that loads its provider module on first call, so
 * `import { streamAnthropic } from "@pi/ai"` costs nothing at import. Calls after the first go
 * straight to the loaded function.
 */
export function lazyBuiltinStream<TApi extends Api, TOptions extends StreamOptions>(
	api: TApi,
	kind: "stream" | "streamSimple",
): StreamFunction<TApi, TOptions> {
	const load = builtins[api];
	if (!load) throw new Error(`lazyBuiltinStream: "${api}" is not a built-in api`);
	const provider = lazyProvider(api, load);
	return provider[kind] as unknown as StreamFunction<TApi, TOptions>;
}

function lazyProvider(api: Api, load: Loader): ApiProvider {
	let loaded: StreamFunctions | undefined;
	const forward =
		(kind: "stream" | "streamSimple") =>
		(model: Model<Api>, context: Context, options?: StreamOptions): AssistantMessageEventStream => {
			if (loaded) return loaded[kind](model, context, options);
			const outer = new AssistantMessageEventStream();
			load().then(
				async (provider) => {
					loaded = provider;
					const inner = adoptStream(outer, () => provider[kind](model, context, options));
					if (inner === outer) return;
					for await (const event of inner) outer.push(event);
					outer.end(await inner.result());
				},
				(error: unknown) => {
					new AssistantMessageBuilder(model, [options?.apiKey], outer).fail(error, options?.signal);
				},
			);
			return outer;
		};
	const provider: ApiProvider = { api, stream: forward("stream"), streamSimple: forward("streamSimple") };
	if (!DEFERRING_APIS.has(api)) return provider;
	const load_ = async (): Promise<StreamFunctions> => (loaded ??= await load());
	provider.streamDeferred = (model: Model<Api>, handle: DeferredHandle, options?: DeferredFetchOptions): AssistantMessageEventStream => {
		if (loaded?.streamDeferred) return loaded.streamDeferred(model, handle, options);
		const outer = new AssistantMessageEventStream();
		load_().then(
			async (functions) => {
				const redeem = functions.streamDeferred;
				if (!redeem) throw new Error(`The "${api}" API cannot redeem deferred replies.`);
				const inner = adoptStream(outer, () => redeem(model, handle, options));
				if (inner === outer) return;
				for await (const event of inner) outer.push(event);
				outer.end(await inner.result());
			},
		).catch((error: unknown) => {
			new AssistantMessageBuilder(model, [options?.apiKey], outer).fail(error, options?.signal);
		});
		return outer;
	};
	provider.cancelDeferred = async (model: Model<Api>, handle: DeferredHandle, options?: DeferredCancelOptions): Promise<void> => {
		const functions = await load_();
		if (!functions.cancelDeferred) throw new Error(`The "${api}" API cannot cancel deferred replies.`);
		await functions.cancelDeferred(model, handle, options);
	};
	return provider;
}
