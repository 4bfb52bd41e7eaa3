import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamAnthropic } from "../../../src/providers/anthropic-messages.js";
import { buildRequest } from "../../../src/providers/anthropic-messages/build-request.js";
import { assertEventProtocol, loadFixture, type ReplayServer, recordEvents, sseResponse, startReplayServer } from "../../../src/testing/index.js";
import type { AssistantMessage, Context } from "../../../src/types.js";
import { anthropicModel, ask, user } from "./helpers.js";

/**
 * Anthropic server-tool blocks on the recorded `web-search-server-tool` capture: out of the text,
 * replayed whole and in wire order to the same model (encrypted results included), and never
 * sent to another model.
 */

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());

async function replayCapture(): Promise<AssistantMessage> {
	server.reset();
	server.enqueue(sseResponse(loadFixture("anthropic-messages", "web-search-server-tool"), { chunking: { seed: 3, minChunkBytes: 64, maxChunkBytes: 2048 } }));
	const model = anthropicModel({ id: "claude-sonnet-4-20250514", baseUrl: server.url });
	return assertEventProtocol(await recordEvents(streamAnthropic(model, ask("Weather in SF?"), { apiKey: "sk-ant-test" }))).message;
}

describe("Anthropic server-tool blocks", () => {
	it("are not text: the content is the thinking and the text blocks only", async () => {
		const message = await replayCapture();
		expect(message.content[0]?.type).toBe("thinking");
		expect(message.content.slice(1).every((block) => block.type === "text")).toBe(true);
		expect(message.content).toHaveLength(13);
		const text = message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
		expect(text).not.toContain("encrypted_content");
	});

	it("go back to the same model whole and in wire order (next-turn body)", async () => {
		const message = await replayCapture();
		const model = anthropicModel({ id: "claude-sonnet-4-20250514" });
		const context: Context = { messages: [user("Weather in SF?"), message, user("Thanks")] };
		const assistant = buildRequest(model, context, {}).body.messages[1] as { role: string; content: { type: string; id?: string; tool_use_id?: string; input?: unknown }[] };
		expect(assistant.role).toBe("assistant");
		expect(assistant.content.slice(0, 7).map((block) => block.type)).toEqual([
			"thinking",
			"server_tool_use",
			"web_search_tool_result",
			"text",
			"server_tool_use",
			"web_search_tool_result",
			"text",
		]);
		const [, firstUse, firstResult, , secondUse, secondResult] = assistant.content;
		expect(firstUse).toMatchObject({ type: "server_tool_use", name: "web_search", input: { query: "San Francisco weather today" } });
		expect(firstResult?.tool_use_id).toBe(firstUse?.id);
		expect(JSON.stringify(firstResult)).toContain("encrypted_content");
		expect(secondUse).toMatchObject({ input: { query: "San Francisco weather September 16 2025" } });
		expect(secondResult?.tool_use_id).toBe(secondUse?.id);
	});

	it("are not sent to another model", async () => {
		const message = await replayCapture();
		const other = anthropicModel({ id: "claude-opus-4-6" });
		const body = buildRequest(other, { messages: [user("Weather in SF?"), message, user("Thanks")] }, {}).body;
		expect(JSON.stringify(body)).not.toContain("server_tool_use");
		expect(JSON.stringify(body)).not.toContain("web_search_tool_result");
	});
});
