import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Api, type Context, createProviderStream, type Model, type SimpleStreamOptions } from "@pi/ai";
import { handleProxyRequest, type ProxyServerOptions, toNodeHandler } from "../../src/proxy/proxy-server.js";

export const APP_TOKEN = "app-token-123";

/** The model the proxy serves; the stream functions below stand in for the provider. */
export const proxyModel: Model<"openai-completions"> = {
	id: "gpt-4o-mini", name: "GPT-4o mini", api: "openai-completions", provider: "openai", baseUrl: "http://127.0.0.1:9/v1",
	reasoning: true, input: ["text"], cost: { input: 0.15, output: 0.6, cacheRead: 0, cacheWrite: 0 }, contextWindow: 128_000, maxTokens: 16_384,
};

export const proxyContext: Context = { messages: [{ role: "user", content: "Hi", timestamp: 1 }] };

/** A valid request body for {@link proxyModel}. */
export function validBody(options: Record<string, unknown> = {}): string {
	return JSON.stringify({ model: proxyModel, context: proxyContext, options });
}

/** A stream function that answers "ok" with some usage, recording the options it was given. */
export function answeringStreamFn(seen: SimpleStreamOptions[] = []) {
	return (model: Model<Api>, _context: Context, options: SimpleStreamOptions) => {
		seen.push(options);
		return createProviderStream(model, options, async (builder) => {
			const text = builder.startText();
			builder.appendText(text, "ok");
			builder.end(text);
			builder.setUsage({ input: 1000, output: 2000 });
			builder.finish("stop");
		});
	};
}

export interface NodeProxy {
	port: number;
	url: string;
	/** Every answer of handleProxyRequest, in order. */
	statuses: number[];
	close(): Promise<void>;
}

/** handleProxyRequest behind the shipped Node adapter, on 127.0.0.1 and a free port. */
export async function startNodeProxy(options: Partial<ProxyServerOptions> = {}, onError?: (error: unknown) => void): Promise<NodeProxy> {
	const statuses: number[] = [];
	const handler = toNodeHandler(
		async (request) => {
			const response = await handleProxyRequest(request, {
				authorize: (token) => token === APP_TOKEN,
				resolveModel: (requested) => (requested.id === proxyModel.id ? proxyModel : undefined),
				getApiKey: () => "sk-server-only-secret",
				streamFn: answeringStreamFn(),
				...options,
			});
			statuses.push(response.status);
			return response;
		},
		{ onError },
	);
	const server: Server = createServer(handler);
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	return {
		port,
		url: `http://127.0.0.1:${port}`,
		statuses,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

/** Records uncaught exceptions and unhandled rejections while `body` runs. */
export async function watchProcess<T>(body: () => Promise<T>): Promise<{ result: T; crashes: unknown[] }> {
	const crashes: unknown[] = [];
	const record = (error: unknown) => crashes.push(error);
	process.on("uncaughtException", record);
	process.on("unhandledRejection", record);
	try {
		const result = await body();
		// Let pending rejections surface before looking.
		await new Promise((resolve) => setImmediate(resolve));
		return { result, crashes };
	} finally {
		process.off("uncaughtException", record);
		process.off("unhandledRejection", record);
	}
}
