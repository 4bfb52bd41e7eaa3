/** A fresh replay server per case, so that cases can run concurrently without sharing a queue. */
import { type ReplayServer, type ReplayServerOptions, startReplayServer } from "../../../src/testing/index.js";

/** Starts a server, runs `fn` with it and closes it, even when `fn` throws. */
export async function withServer<T>(fn: (server: ReplayServer) => Promise<T>, options: ReplayServerOptions = {}): Promise<T> {
	const server = await startReplayServer(options);
	try {
		return await fn(server);
	} finally {
		await server.close();
	}
}
