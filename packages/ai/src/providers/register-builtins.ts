import { type ApiProvider, getApiProvider, registerApiProvider } from "../api-registry.js";
import { AssistantMessageBuilder } from "../assistant-message-builder.js";
import { AssistantMessageEventStream } from "../event-stream.js";
import { adoptStream } from "../provider-stream.js";
import type { Api, Context, Model, StreamOptions } from "../types.js";

type Loader = () => Promise<Pick<ApiProvider, "stream" | "streamSimple">>;

/**
 * The built-in wire APIs. Each provider module loads on its first call, so importing `@pi/ai`
 * costs only this table. To add a provider: write `providers/<api>.ts` exporting its stream
 * functions, and add one line here.
 */
const builtins: Record<string, Loader> = {
	// one line per built-in provider, e.g.
	// "openai-completions": () => import("./openai-completions.js").then((m) => ({ stream: m.streamOpenAICompletions, streamSimple: m.streamSimpleOpenAICompletions })),
	"openai-completions": () => import("./openai-completions.js").then((m) => ({ stream: m.streamOpenAICompletions as ApiProvider["stream"], streamSimple: m.streamSimpleOpenAICompletions as ApiProvider["streamSimple"] })),
	"openai-responses": () => import("./openai-responses.js").then((m) => ({ stream: m.streamOpenAIResponses as ApiProvider["stream"], streamSimple: m.streamSimpleOpenAIResponses as ApiProvider["streamSimple"] })),
	"anthropic-messages": () => import("./anthropic-messages.js").then((m) => ({ stream: m.streamAnthropic as ApiProvider["stream"], streamSimple: m.streamSimpleAnthropic as ApiProvider["streamSimple"] })),
	"google-generative-ai": () => import("./google-generative-ai.js").then((m) => ({ stream: m.streamGoogle as ApiProvider["stream"], streamSimple: m.streamSimpleGoogle as ApiProvider["streamSimple"] })),
};

export const BUILTIN_SOURCE_ID = "@pi/ai/builtins";
let registered = false;

/** Registers the built-in providers once, unless the user registered their own for that api. */
export function ensureBuiltinApiProviders(): void {
	if (registered) return;
	registered = true;
	registerBuiltinApiProviders();
}

/** Registers (again) every built-in provider, replacing earlier registrations of those apis. */
export function registerBuiltinApiProviders(): void {
	registered = true;
	for (const [api, load] of Object.entries(builtins)) {
		if (getApiProvider(api)) continue;
		registerApiProvider(lazyProvider(api, load), BUILTIN_SOURCE_ID);
	}
}

function lazyProvider(api: Api, load: Loader): ApiProvider {
	let loaded: Pick<ApiProvider, "stream" | "streamSimple"> | undefined;
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
	return { api, stream: forward("stream"), streamSimple: forward("streamSimple") };
}
