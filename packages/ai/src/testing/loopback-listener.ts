import type { Server } from "node:http";
import type { Socket } from "node:net";

/** A test server listening on 127.0.0.1, with the sockets it holds open. */
export interface LoopbackListener {
	port: number;
	url: string;
	/** Connections accepted so far. */
	readonly connections: number;
	/** Destroys every open connection (a stalled response included). */
	destroySockets(): void;
}

/**
 * Listens on a free port of 127.0.0.1 and tracks the server's sockets, so that `close()` can end
 * stalled connections. A malformed request (or a client resetting mid-request) destroys its
 * socket instead of crashing the test process. Shared by the replay server and the recorder.
 */
export async function listenOnLoopback(server: Server, name: string): Promise<LoopbackListener> {
	const sockets = new Set<Socket>();
	let connections = 0;
	server.on("connection", (socket: Socket) => {
		connections++;
		sockets.add(socket);
		socket.on("close", () => sockets.delete(socket));
	});
	server.on("clientError", (_error, socket: Socket) => socket.destroy());
	await new Promise<void>((resolve, reject) => {
		server.once("error", reject);
		server.listen(0, "127.0.0.1", () => {
			server.off("error", reject);
			resolve();
		});
	});
	const address = server.address();
	if (address === null || typeof address === "string") throw new Error(`${name}: no TCP address after listen`);
	return {
		port: address.port,
		url: `http://127.0.0.1:${address.port}`,
		get connections() {
			return connections;
		},
		destroySockets() {
			for (const socket of sockets) socket.destroy();
			sockets.clear();
		},
	};
}
