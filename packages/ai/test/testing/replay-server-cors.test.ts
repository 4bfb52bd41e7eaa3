import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReplayServer, sseResponse, startReplayServer } from "../../src/testing/index.js";

/** The `cors` option: what a browser on another origin needs (checked here at the HTTP level). */
let server: ReplayServer;
let plain: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer({ cors: true });
	plain = await startReplayServer();
});
afterAll(async () => {
	await server.close();
	await plain.close();
});

const preflight = (url: string) =>
	fetch(`${url}/v1/messages`, {
		method: "OPTIONS",
		headers: { origin: "http://127.0.0.1:1", "access-control-request-method": "POST", "access-control-request-headers": "content-type,x-api-key" },
	});

describe("replay server cors option", () => {
	it("answers a preflight 204 allowing what was asked, without taking a scripted response", async () => {
		server.reset();
		server.enqueue(sseResponse("data: {}\n\n"));
		const response = await preflight(server.url);
		expect(response.status).toBe(204);
		expect(response.headers.get("access-control-allow-origin")).toBe("http://127.0.0.1:1");
		expect(response.headers.get("access-control-allow-methods")).toBe("POST");
		expect(response.headers.get("access-control-allow-headers")).toBe("content-type,x-api-key");
		expect(server.preflights.map((r) => r.method)).toEqual(["OPTIONS"]);
		expect(server.requests).toEqual([]);
		expect(server.pendingResponses).toBe(1);

		const post = await fetch(`${server.url}/v1/messages`, { method: "POST", headers: { origin: "http://127.0.0.1:1" }, body: "{}" });
		expect(post.headers.get("access-control-allow-origin")).toBe("http://127.0.0.1:1");
		expect(post.headers.get("content-type")).toBe("text/event-stream");
		expect(await post.text()).toBe("data: {}\n\n");
		expect(server.requests.map((r) => r.method)).toEqual(["POST"]);
	});

	it("sends no CORS header without the option, and an OPTIONS is an ordinary request", async () => {
		plain.reset();
		const response = await preflight(plain.url);
		expect(response.headers.get("access-control-allow-origin")).toBeNull();
		expect(response.status).toBe(500);
		expect(plain.requests.map((r) => r.method)).toEqual(["OPTIONS"]);
		expect(plain.preflights).toEqual([]);
	});
});
