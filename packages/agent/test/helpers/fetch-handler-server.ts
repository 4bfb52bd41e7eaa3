import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { toNodeHandler } from "../../src/proxy/proxy-server.js";

/** A real HTTP server on 127.0.0.1 that answers with a `Request → Response` handler. */
export interface FetchHandlerServer {
	readonly url: string;
	close(): Promise<void>;
}

/** Serves `handler` over node:http through the shipped adapter, `toNodeHandler`. */
export async function serveFetchHandler(handler: (request: Request) => Promise<Response>): Promise<FetchHandlerServer> {
	const server: Server = createServer(toNodeHandler(handler));
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
