import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";

/** A real HTTP server on 127.0.0.1 that answers with a `Request → Response` handler. */
export interface FetchHandlerServer {
	readonly url: string;
	/** Requests whose client went away before the response ended. */
	readonly disconnects: number;
	close(): Promise<void>;
}

/**
 * Serves `handler` over node:http: each incoming request becomes a standard `Request` (its
 * `signal` aborts when the client disconnects), and the `Response` is streamed back.
 */
export async function serveFetchHandler(handler: (request: Request) => Promise<Response>): Promise<FetchHandlerServer> {
	let disconnects = 0;
	const server: Server = createServer((incoming, outgoing) => {
		const controller = new AbortController();
		outgoing.on("close", () => {
			if (!outgoing.writableFinished) {
				disconnects++;
				controller.abort(new Error("client disconnected"));
			}
		});
		void (async () => {
			const response = await handler(toRequest(incoming, controller.signal));
			const headers: Record<string, string> = {};
			response.headers.forEach((value, name) => {
				headers[name] = value;
			});
			outgoing.writeHead(response.status, headers);
			if (!response.body) return void outgoing.end();
			const reader = response.body.getReader();
			controller.signal.addEventListener("abort", () => void reader.cancel(controller.signal.reason).catch(() => {}), { once: true });
			try {
				while (true) {
					const { done, value } = await reader.read();
					if (done) break;
					outgoing.write(value);
				}
				outgoing.end();
			} catch {
				outgoing.destroy();
			}
		})().catch((error: unknown) => {
			outgoing.statusCode = 500;
			outgoing.end(String(error));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		get disconnects() {
			return disconnects;
		},
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

function toRequest(incoming: IncomingMessage, signal: AbortSignal): Request {
	const headers = new Headers();
	for (const [name, value] of Object.entries(incoming.headers)) {
		if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
	}
	const hasBody = incoming.method !== "GET" && incoming.method !== "HEAD";
	return new Request(`http://127.0.0.1${incoming.url ?? "/"}`, {
		method: incoming.method,
		headers,
		signal,
		...(hasBody ? { body: Readable.toWeb(incoming) as ReadableStream<Uint8Array>, duplex: "half" } : {}),
	} as RequestInit);
}
