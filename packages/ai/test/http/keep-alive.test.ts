/**
 * Consecutive requests to one server share one keep-alive connection. Anthropic, Responses and
 * Completions replies are left as soon as the provider's final event is handled; `fetch` closes
 * the connection of a body cancelled before its end, so the HTTP seam reads what is left of it
 * (the body's end, a `[DONE]`) instead, and cancels only a body that does not end soon after
 * (500 ms) or goes on for long (64 KB).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { postEventStreamBatches } from "../../src/http/post-event-stream.js";
import { streamAnthropic } from "../../src/providers/anthropic-messages.js";
import { streamGoogle } from "../../src/providers/google-generative-ai.js";
import { streamOpenAICompletions } from "../../src/providers/openai-completions.js";
import { streamOpenAIResponses } from "../../src/providers/openai-responses.js";
import { loadFixture, type ReplayServer, sseResponse, startReplayServer } from "../../src/testing/index.js";
import type { AssistantMessageEventStream, Context } from "../../src/types.js";
import { anthropicModel } from "../providers/anthropic-messages/helpers.js";
import { completionsModel } from "../providers/openai-completions/helpers.js";
import { geminiModel } from "../providers/google-generative-ai/helpers.js";
import { responsesModel } from "../providers/openai-responses/helpers.js";

const CONTEXT: Context = { messages: [{ role: "user", content: "Hello", timestamp: 0 }] };

const CASES: Record<string, (server: ReplayServer) => AssistantMessageEventStream> = {
	"openai-completions": (server) => streamOpenAICompletions(completionsModel({ baseUrl: `${server.url}/v1` }), CONTEXT, { apiKey: "sk-test" }),
	"openai-responses": (server) => streamOpenAIResponses(responsesModel(server), CONTEXT, { apiKey: "sk-test" }),
	"anthropic-messages": (server) => streamAnthropic(anthropicModel({ baseUrl: server.url }), CONTEXT, { apiKey: "sk-ant-test" }),
	"google-generative-ai": (server) => streamGoogle(geminiModel("gemini-2.5-flash", { baseUrl: `${server.url}/v1beta` }), CONTEXT, { apiKey: "gemini-test" }),
};

let server: ReplayServer;
beforeEach(async () => {
	server = await startReplayServer({ chunking: { seed: 3, minChunkBytes: 1, maxChunkBytes: 256 } });
});
afterEach(() => server.close());

/** Reads a stream to its end and returns its final message. */
async function drain(stream: AssistantMessageEventStream) {
	for await (const _event of stream);
	return stream.result();
}

for (const [api, run] of Object.entries(CASES)) {
	describe(`${api}: keep-alive`, () => {
		it("six replies in a row reuse their connections", async () => {
			const bytes = loadFixture(api, "text-basic");
			for (let i = 0; i < 6; i++) server.enqueue(sseResponse(bytes));
			for (let i = 0; i < 6; i++) expect((await drain(run(server))).stopReason).toBe("stop");
			expect(server.requests).toHaveLength(6);
			// A cancelled body closes its connection: that was six. `fetch` may open a second one
			// while the first is being handed back after the first reply; after that they are reused.
			expect(server.connections).toBeLessThanOrEqual(2);
		});

		// Gemini has no final event of its own: its reply ends with the body.
		if (api === "google-generative-ai") return;
		it("a body that stays open after the final event ends the reply at once, and the next request still succeeds", async () => {
			const bytes = loadFixture(api, "text-basic");
			server.enqueue({ ...sseResponse(bytes), stallAfterBytes: bytes.length }, sseResponse(bytes));
			expect((await drain(run(server))).stopReason).toBe("stop");
			// The stalled body is still being drained (and cancelled after the drain's deadline), so
			// the next reply takes a connection of its own.
			expect((await drain(run(server))).stopReason).toBe("stop");
			expect(server.connections).toBe(2);
		});
	});
}

describe("postEventStreamBatches: the rest of a body the caller left", () => {
	let http: Server;
	let url: string;
	let connections = 0;
	let closed: Promise<void>;
	let onClosed: () => void;

	beforeEach(async () => {
		connections = 0;
		closed = new Promise((resolve) => (onClosed = resolve));
		http = createServer((request, response) => {
			response.writeHead(200, { "content-type": "text/event-stream" });
			response.write("data: final\n\n");
			if (request.url === "/stall") {
				request.socket.once("close", () => onClosed());
				return; // never ends
			}
			// A tail of comments, far beyond what the drain reads, then the end.
			response.end(": pad\n".repeat(200_000));
		});
		http.on("connection", () => connections++);
		await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
		url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
	});
	afterEach(async () => {
		http.closeAllConnections();
		await new Promise((resolve) => http.close(resolve));
	});

	/** Makes one request and leaves after its first batch of events, as a provider does at its final event. */
	async function leaveAfterFirstEvent(path: string): Promise<string[]> {
		for await (const batch of postEventStreamBatches({ url: `${url}${path}`, headers: {}, body: {}, maxRetries: 0 })) {
			return batch.map((event) => event.data);
		}
		return [];
	}

	it("cancels a body that does not end, once the drain's deadline passed", async () => {
		expect(await leaveAfterFirstEvent("/stall")).toEqual(["final"]);
		// Without the deadline the connection would stay open and this would never resolve.
		await closed;
	});

	it("cancels a tail longer than the drain reads instead of reading it to its end", async () => {
		for (let i = 0; i < 3; i++) {
			expect(await leaveAfterFirstEvent("/tail")).toEqual(["final"]);
			// Time for a drain that read the whole 1.2 MB to hand its connection back.
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
		// Each cancelled body closed its connection.
		expect(connections).toBeGreaterThanOrEqual(3);
	});
});
