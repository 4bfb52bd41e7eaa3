import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildRequest } from "../../../src/providers/openai-responses/build-request.js";
import { assertEventProtocol, type ReplayServer, startReplayServer } from "../../../src/testing/index.js";
import type { Context } from "../../../src/types.js";
import { replayFixture, responsesModel, TEST_KEY, userContext } from "./helpers.js";

/**
 * Built-in tool items (here `web_search_call`, on the recorded `web-search` capture) are not text
 * and not tool calls; they are kept, in wire order, for an exact replay to the same model.
 */

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());

const WEB_SEARCH_CALL = {
	id: "ws_00a60507bf41223d0068c9d30021d081a0962d80d50c12e317",
	type: "web_search_call",
	status: "completed",
	action: { type: "search", query: "weather: San Francisco, CA", sources: [{ type: "api", name: "oai-weather" }] },
};

describe("Responses built-in tool items", () => {
	it("stay out of the content: thinking, thinking, text, and no tool call", async () => {
		const { message } = assertEventProtocol(await replayFixture(server, "web-search"));
		expect(message.content.map((block) => block.type)).toEqual(["thinking", "thinking", "text"]);
		expect(message.stopReason).toBe("stop");
		const text = message.content[2];
		expect(text?.type === "text" && text.text.startsWith("San Francisco weather today")).toBe(true);
	});

	it("are replayed in wire order to the same model (golden input items)", async () => {
		const { message } = await replayFixture(server, "web-search");
		const model = responsesModel(server);
		const context: Context = { messages: [...userContext().messages, message, { role: "user", content: "And tomorrow?", timestamp: 2 }] };
		const input = buildRequest(model, context, {}, TEST_KEY).body.input as { type?: string; id?: string; role?: string }[];
		expect(input.map((item) => item.type ?? item.role)).toEqual(["user", "reasoning", "web_search_call", "reasoning", "message", "user"]);
		expect(input[2]).toEqual(WEB_SEARCH_CALL);
		expect(input.map((item) => item.id)).toEqual([
			undefined,
			"rs_00a60507bf41223d0068c9d2fc927081a088e0b920cdfe3866",
			WEB_SEARCH_CALL.id,
			"rs_00a60507bf41223d0068c9d300b23481a0b77a03d911213220",
			"msg_00a60507bf41223d0068c9d30b055481a0b0ee28a021919c94",
			undefined,
		]);
		// Our bookkeeping field never reaches the wire.
		expect(JSON.stringify(input)).not.toContain("piBefore");
	});

	it("are not sent to another model", async () => {
		const { message } = await replayFixture(server, "web-search");
		const other = responsesModel(server, { id: "gpt-5-mini" });
		const input = buildRequest(other, { messages: [message] }, {}, TEST_KEY).body.input;
		expect(JSON.stringify(input)).not.toContain("web_search_call");
	});
});
