import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReplayServer, startReplayServer } from "../../../src/testing/index.js";
import type { Context, Model } from "../../../src/types.js";
import { assistant, capture, completionsModel, FLAVOURS, toolResult, user } from "./helpers.js";

/**
 * `compat.requiresReasoningContentOnAssistantMessages`: every assistant message of a reasoning
 * model carries `reasoning_content`, empty where there is nothing to replay. Detected for
 * DeepSeek, whose thinking mode answers 400 "Missing `reasoning_content` field" otherwise.
 */

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());

const OTHER = { id: "gpt-4o", api: "openai-completions", provider: "openai" };

/** A turn without thinking from another model, a tool call, then the target model's own reasoning. */
function transcript(model: Model<"openai-completions">): Context {
	return {
		messages: [
			user("Hi"),
			assistant([{ type: "text", text: "Hello." }], OTHER),
			user("Weather?"),
			assistant([{ type: "toolCall", id: "call_1", name: "get_weather", arguments: {} }], model, "toolUse"),
			toolResult("call_1", "get_weather", [{ type: "text", text: "Sunny" }]),
			assistant([{ type: "thinking", thinking: "Report it." }, { type: "text", text: "Sunny." }], model),
			user("Thanks"),
		],
	};
}

const CALL = [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: "{}" } }];

async function assistants(model: Model<"openai-completions">): Promise<unknown[]> {
	const { request } = await capture(server, model, transcript(model), { apiKey: "sk-test" });
	return (request.json as { messages: { role: string }[] }).messages.filter((message) => message.role === "assistant");
}

describe("compat.requiresReasoningContentOnAssistantMessages", () => {
	it("detected for DeepSeek: an empty reasoning_content where the turn has none", async () => {
		expect(await assistants(FLAVOURS.deepseek)).toEqual([
			{ role: "assistant", content: "Hello.", reasoning_content: "" },
			{ role: "assistant", content: null, tool_calls: CALL, reasoning_content: "" },
			{ role: "assistant", content: "Sunny.", reasoning_content: "Report it." },
		]);
	});

	it("unset elsewhere: vLLM replays reasoning_content only where there was reasoning", async () => {
		const vllm = completionsModel({ id: "Qwen/Qwen3-8B", provider: "vllm", reasoning: true, input: ["text"] });
		expect(await assistants(vllm)).toEqual([
			{ role: "assistant", content: "Hello." },
			{ role: "assistant", content: null, tool_calls: CALL },
			{ role: "assistant", content: "Sunny.", reasoning_content: "Report it." },
		]);
	});

	it("set on another server: added there too, next to the server's own reasoning field", async () => {
		const model = { ...FLAVOURS.openrouter, compat: { requiresReasoningContentOnAssistantMessages: true } };
		expect(await assistants(model)).toEqual([
			{ role: "assistant", content: "Hello.", reasoning_content: "" },
			{ role: "assistant", content: null, tool_calls: CALL, reasoning_content: "" },
			{ role: "assistant", content: "Sunny.", reasoning: "Report it.", reasoning_content: "" },
		]);
	});

	it("false overrides the DeepSeek default, and a model without reasoning never gets it", async () => {
		const off = { ...FLAVOURS.deepseek, compat: { requiresReasoningContentOnAssistantMessages: false } };
		const chat = { ...FLAVOURS.deepseek, id: "deepseek-chat", reasoning: false };
		for (const model of [off, chat]) {
			expect(await assistants(model)).toEqual([
				{ role: "assistant", content: "Hello." },
				{ role: "assistant", content: null, tool_calls: CALL },
				{ role: "assistant", content: "Sunny.", reasoning_content: "Report it." },
			]);
		}
	});
});
