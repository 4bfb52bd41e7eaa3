/** prompts/get messages → agent messages. */
import { describe, expect, it } from "vitest";
import { promptMessages } from "../../src/index.js";

describe("promptMessages", () => {
	it("user messages keep their blocks; assistant messages become finished assistant messages", () => {
		expect(
			promptMessages(
				[
					{ role: "user", content: { type: "text", text: "Review this" } },
					{ role: "assistant", content: { type: "text", text: "Sure" } },
					{ role: "assistant", content: { type: "image", data: "AA==", mimeType: "image/png" } },
					{ role: "user", content: { type: "image", data: "AA==", mimeType: "image/png" } },
				],
				"reviewer",
				5,
			),
		).toEqual([
			{ role: "user", content: [{ type: "text", text: "Review this" }], timestamp: 5 },
			{
				role: "assistant",
				content: [{ type: "text", text: "Sure" }],
				api: "mcp",
				provider: "reviewer",
				model: "mcp-prompt",
				usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
				stopReason: "stop",
				timestamp: 5,
			},
			expect.objectContaining({ role: "assistant", content: [{ type: "text", text: "[image image/png, not shown]" }] }),
			{ role: "user", content: [{ type: "image", data: "AA==", mimeType: "image/png" }], timestamp: 5 },
		]);
	});
});
