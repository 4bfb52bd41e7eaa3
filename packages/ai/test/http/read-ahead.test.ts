/**
 * Bytes the server sent before a connection reset are kept even when the consumer is slow. A body
 * stream that errors empties its queue, so a chunk that arrived while no read was pending would be
 * lost; the HTTP seam therefore always has a read pending.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postEventStream } from "../../src/http/post-event-stream.js";

let server: Server;
let url: string;

beforeAll(async () => {
	server = createServer((_request, response) => {
		response.writeHead(200, { "content-type": "text/event-stream" });
		response.write("data: first\n\n");
		// The second event arrives while the consumer is still busy with the first; the reset
		// follows before the consumer asks for more.
		setTimeout(() => response.write("data: second\n\n"), 40);
		setTimeout(() => response.socket?.resetAndDestroy(), 120);
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(async () => {
	server.closeAllConnections();
	await new Promise((resolve) => server.close(resolve));
});

describe("postEventStream with a slow consumer and a reset", () => {
	it("delivers every event the server sent before the reset, then the error", async () => {
		const received: string[] = [];
		let failure: unknown;
		try {
			for await (const event of postEventStream({ url, headers: {}, body: {}, maxRetries: 0 })) {
				received.push(event.data);
				// Busy well past the second event and the reset.
				if (received.length === 1) await new Promise((resolve) => setTimeout(resolve, 400));
			}
		} catch (error) {
			failure = error;
		}
		expect(received).toEqual(["first", "second"]);
		expect(String(failure)).toMatch(/network|terminated|reset|socket/i);
	});
});
