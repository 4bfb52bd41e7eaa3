import { describe, expect, it } from "vitest";
import type { Message } from "../../../src/types.js";
import { useCapture } from "./capture.js";
import { anthropicModel, assistant, user } from "./helpers.js";

/** Golden prompt-cache breakpoints for each `cacheRetention`. */
const { capture } = useCapture();

const conversation: Message[] = [
	user("First question"),
	assistant([{ type: "text", text: "First answer" }]),
	{ role: "user", content: [{ type: "text", text: "Second" }, { type: "text", text: "question" }], timestamp: 0 },
];

describe("anthropic-messages request: prompt caching", () => {
	it("short (the default): an ephemeral breakpoint on the last system block and on the last block of the last user turn", async () => {
		const { body, request } = await capture({ systemPrompt: "System.", messages: conversation });
		expect(body).toEqual({
			model: "claude-sonnet-4-20250514",
			max_tokens: 32000,
			stream: true,
			system: [{ type: "text", text: "System.", cache_control: { type: "ephemeral" } }],
			messages: [
				{ role: "user", content: [{ type: "text", text: "First question" }] },
				{ role: "assistant", content: [{ type: "text", text: "First answer" }] },
				{
					role: "user",
					content: [
						{ type: "text", text: "Second" },
						{ type: "text", text: "question", cache_control: { type: "ephemeral" } },
					],
				},
			],
		});
		expect(request.headers["anthropic-beta"]).toBeUndefined();
	});

	it("long: ttl 1h on both breakpoints, with the extended-cache-ttl beta", async () => {
		const { body, request } = await capture({ systemPrompt: "System.", messages: conversation }, { cacheRetention: "long" });
		expect(body.system).toEqual([{ type: "text", text: "System.", cache_control: { type: "ephemeral", ttl: "1h" } }]);
		expect((body.messages as { content: unknown[] }[])[2]?.content).toEqual([
			{ type: "text", text: "Second" },
			{ type: "text", text: "question", cache_control: { type: "ephemeral", ttl: "1h" } },
		]);
		expect(request.headers["anthropic-beta"]).toBe("extended-cache-ttl-2025-04-11");
	});

	it("none: no cache_control anywhere and no beta", async () => {
		const { body, request } = await capture({ systemPrompt: "System.", messages: conversation }, { cacheRetention: "none" });
		expect(JSON.stringify(body)).not.toContain("cache_control");
		expect(request.headers["anthropic-beta"]).toBeUndefined();
	});

	it("puts the turn breakpoint on a trailing tool_result, and on the last user turn when an assistant prefill follows", async () => {
		const withResult = await capture({
			messages: [
				user("Go"),
				assistant([{ type: "toolCall", id: "toolu_1", name: "now", arguments: {} }], anthropicModel(), "toolUse"),
				{ role: "toolResult", toolCallId: "toolu_1", toolName: "now", content: [{ type: "text", text: "noon" }], isError: false, timestamp: 0 },
			],
		});
		expect((withResult.body.messages as unknown[])[2]).toEqual({
			role: "user",
			content: [{ type: "tool_result", tool_use_id: "toolu_1", content: [{ type: "text", text: "noon" }], cache_control: { type: "ephemeral" } }],
		});

		const prefill = await capture({ messages: [user("Say hi"), assistant([{ type: "text", text: "Hi" }])] });
		expect(prefill.body.messages).toEqual([
			{ role: "user", content: [{ type: "text", text: "Say hi", cache_control: { type: "ephemeral" } }] },
			{ role: "assistant", content: [{ type: "text", text: "Hi" }] },
		]);
	});

	it("sends no system at all for a blank system prompt", async () => {
		const { body } = await capture({ systemPrompt: "  ", messages: [user("Hi")] });
		expect(body.system).toBeUndefined();
	});
});
