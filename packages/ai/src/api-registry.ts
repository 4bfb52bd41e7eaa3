import type { AssistantMessageEventStream } from "./event-stream.js";
import type { Api, Context, Model, SimpleStreamOptions, StreamFunction, StreamOptions } from "./types.js";

/** A registered provider's `stream`, as the registry hands it out (reference name). */
export type ApiStreamFunction = (model: Model<Api>, context: Context, options?: StreamOptions) => AssistantMessageEventStream;
/** A registered provider's `streamSimple`, as the registry hands it out (reference name). */
export type ApiStreamSimpleFunction = (model: Model<Api>, context: Context, options?: SimpleStreamOptions) => AssistantMessageEventStream;

/** A wire API implementation: its full-options and simple-options stream functions. */
export interface ApiProvider<TApi extends Api = Api, TOptions extends StreamOptions = StreamOptions> {
	api: TApi;
	stream: StreamFunction<TApi, TOptions>;
	streamSimple: StreamFunction<TApi, SimpleStreamOptions>;
}

interface Registration {
	provider: ApiProvider<Api, StreamOptions>;
	sourceId: string | undefined;
}

const registry = new Map<string, Registration>();

/**
 * Registers the implementation of a wire API, replacing any earlier one for the same `api`.
 * `sourceId` groups registrations so that `unregisterApiProviders(sourceId)` removes them together.
 *
 * @example
 * registerApiProvider({ api: "my-api", stream: myStream, streamSimple: myStream }, "my-plugin");
 */
export function registerApiProvider<TApi extends Api, TOptions extends StreamOptions>(
	provider: ApiProvider<TApi, TOptions>,
	sourceId?: string,
): void {
	if (!provider || typeof provider.api !== "string" || provider.api === "") {
		throw new TypeError("registerApiProvider: `api` must be a non-empty string");
	}
	if (typeof provider.stream !== "function" || typeof provider.streamSimple !== "function") {
		throw new TypeError(`registerApiProvider: "${provider.api}" needs both \`stream\` and \`streamSimple\` functions`);
	}
	registry.set(provider.api, { provider: provider as unknown as ApiProvider<Api, StreamOptions>, sourceId });
}

/** The implementation registered for `api`, or `undefined`. */
export function getApiProvider(api: Api): ApiProvider | undefined {
	return registry.get(api)?.provider;
}

/** Every registered implementation. */
export function getApiProviders(): ApiProvider[] {
	return [...registry.values()].map((registration) => registration.provider);
}

/** Removes every implementation registered with `sourceId`. */
export function unregisterApiProviders(sourceId: string): void {
	for (const [api, registration] of registry) {
		if (registration.sourceId === sourceId) registry.delete(api);
	}
}

/** Removes every implementation, built-ins included. `resetApiProviders()` brings the built-ins back. */
export function clearApiProviders(): void {
	registry.clear();
}
