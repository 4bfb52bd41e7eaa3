/**
 * Routes of the replay server: a method and a path pattern answer an endpoint family; their
 * answers change from call to call; a request no route matches takes the queue; routes come and
 * go; and event-level helpers cut recorded streams at event boundaries.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { jsonResponse, loadFixture, type ReplayServer, splitSseEvents, sseEventsResponse, startReplayServer, textResponse } from "../../src/testing/index.js";
import { readBody } from "./read-body.js";

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const text = async (path: string, init?: RequestInit) => (await fetch(`${server.url}${path}`, init)).text();

describe("routes", () => {
	it("match method and pattern, capture params and parse the query", async () => {
		const route = server.route("GET", "/v1beta/batches/{id}", (request) => jsonResponse(200, { id: request.params.id, after: request.query.get("after") }));
		expect(JSON.parse(await text("/v1beta/batches/42?after=7"))).toEqual({ id: "42", after: "7" });
		expect(route.requests[0]).toMatchObject({ method: "GET", params: { id: "42" }, call: 0 });
		expect(typeof route.requests[0]?.receivedAt).toBe("number");
	});

	it("stop a segment at a colon, for Gemini's custom methods", async () => {
		server.route("POST", "/v1beta/batches/{id}:cancel", textResponse(200, "cancelled"));
		server.route("GET", "/v1beta/batches/{id}", textResponse(200, "status"));
		expect(await text("/v1beta/batches/42:cancel", { method: "POST" })).toBe("cancelled");
		expect(await text("/v1beta/batches/42")).toBe("status");
	});

	it("answer a list in order, the last answer repeating", async () => {
		server.route("GET", "/job", [textResponse(200, "queued"), textResponse(200, "running"), textResponse(200, "done")]);
		const answers = [];
		for (let i = 0; i < 5; i++) answers.push(await text("/job"));
		expect(answers).toEqual(["queued", "running", "done", "done", "done"]);
	});

	it("leave unmatched requests to the queue, and go away when removed or reset", async () => {
		const route = server.route("*", /\/v1\/.+/, textResponse(200, "routed"));
		server.enqueue(textResponse(200, "queued"));
		expect(await text("/other")).toBe("queued");
		expect(await text("/v1/x", { method: "DELETE" })).toBe("routed");
		route.remove();
		expect((await fetch(`${server.url}/v1/x`)).status).toBe(500); // unscripted
		server.route("GET", "/v1/x", textResponse(200, "again"));
		server.reset();
		expect((await fetch(`${server.url}/v1/x`)).status).toBe(500);
	});

	it("answer 500 naming the route when a responder throws", async () => {
		server.route("GET", "/boom", () => {
			throw new Error("scripted failure");
		});
		const response = await fetch(`${server.url}/boom`);
		expect(response.status).toBe(500);
		expect(await response.text()).toContain("scripted failure");
	});
});

describe("event-level cuts", () => {
	const body = loadFixture("google-generative-ai", "text-basic"); // CRLF framing
	const events = splitSseEvents(body);

	it("split a capture into its events, byte for byte", () => {
		expect(events.length).toBeGreaterThan(1);
		expect(Buffer.concat(events.map((event) => event.bytes))).toEqual(body);
		expect(events.every((event) => typeof event.json === "object")).toBe(true);
	});

	it("drop the connection right after an event", async () => {
		server.route("GET", "/sse", sseEventsResponse(events, { dropAfter: 1 }));
		const result = await readBody(await fetch(`${server.url}/sse`));
		expect(result.error).toBeDefined();
		expect(result.bytes).toEqual(Buffer.from(events[0]?.bytes as Uint8Array));
	});
});
