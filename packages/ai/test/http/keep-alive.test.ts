/**
 * Consecutive requests to one server share one keep-alive connection. Anthropic, Responses and
 * Completions replies are left as soon as the provider's final event is handled; `fetch` closes
 * the connection of a body cancelled before its end, so the HTTP seam reads what is left of it
 * (the body's end, a `[DONE]`) instead, and cancels only a body that does not end soon after.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
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
