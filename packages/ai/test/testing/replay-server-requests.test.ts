import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReplayServer, sseResponse, startReplayServer } from "../../src/testing/index.js";

let server: ReplayServer;

beforeAll(async () => {
	server = await startReplayServer({ responses: [sseResponse("data: first\n\n")] });
});
afterAll(() => server.close());

describe("request recording", () => {
	it("serves the responses given at start, then records method, path with query, headers and body", async () => {
		const body = { model: "gemini-2.5-flash", contents: [{ role: "user", parts: [{ text: "héllo" }] }] };
		const response = await fetch(`${server.url}/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse`, {
			method: "POST",
			headers: { "Content-Type": "application/json", "X-Goog-Api-Key": "test-key", "X-Custom": "1" },
			body: JSON.stringify(body),
		});
		expect(await response.text()).toBe("data: first\n\n");
		const [request] = server.requests;
		expect(request).toMatchObject({
			method: "POST",
			path: "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
			body: JSON.stringify(body),
			json: body,
		});
		expect(request?.headers).toMatchObject({ "content-type": "application/json", "x-goog-api-key": "test-key", "x-custom": "1" });
		// What a provider test asserts: the key travels in a header, never in the URL.
		expect(request?.path).not.toContain("test-key");
	});

	it("keeps a body that is not JSON as text, with json undefined", async () => {
		server.reset();
		server.enqueue({}, {});
		await (await fetch(server.url, { method: "POST", body: "not json {" })).text();
		await (await fetch(`${server.url}/health`)).text();
		expect(server.requests.map(({ method, path, body, json }) => ({ method, path, body, json }))).toEqual([
			{ method: "POST", path: "/", body: "not json {", json: undefined },
			{ method: "GET", path: "/health", body: "", json: undefined },
		]);
	});

	it("answers 500 with a JSON error when no response is scripted, and records the request", async () => {
		server.reset();
		const response = await fetch(`${server.url}/v1/chat/completions`, { method: "POST", body: "{}" });
		expect(response.status).toBe(500);
		const error = (await response.json()) as { error: { type: string; message: string } };
		expect(error.error.type).toBe("replay_server_unscripted");
		expect(error.error.message).toMatch(/no response was scripted for request #0 \(POST \/v1\/chat\/completions\)/);
		expect(server.requests).toHaveLength(1);
	});

	it("reset() drops queued responses and recorded requests", async () => {
		server.enqueue({}, {});
		await (await fetch(server.url)).text();
		expect(server.pendingResponses).toBe(1);
		server.reset();
		expect(server.pendingResponses).toBe(0);
		expect(server.requests).toHaveLength(0);
	});

	it("has an origin URL on 127.0.0.1 without a trailing slash", () => {
		expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
		expect(server.port).toBeGreaterThan(0);
	});
});
