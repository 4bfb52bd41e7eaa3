import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReplayServer, startReplayServer } from "../../../src/testing/index.js";
import type { Context, Model } from "../../../src/types.js";
import { assistant, capture, completionsModel, user } from "./helpers.js";

/**
 * `compat.requiresThinkingAsText`: the same model's thinking goes back as the first text part of
 * the assistant message, with no reasoning field. Golden request bodies through the replay server.
 */

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());

/** A vLLM-served reasoning model: its detected replay format is `reasoning_content`. */
const VLLM = completionsModel({ id: "Qwen/Qwen3-8B", provider: "vllm", reasoning: true, input: ["text"] });

function transcript(model: Model<"openai-completions">): Context {
	return {
		messages: [
			user("Weather in Paris?"),
			assistant(
				[
					{ type: "thinking", thinking: "The user wants the weather." },
					// Signed, so transformMessages keeps it although it is blank.
					{ type: "thinking", thinking: " ", thinkingSignature: "reasoning_content" },
					{ type: "thinking", thinking: "I should call the tool." },
					{ type: "text", text: "Checking." },
					{ type: "toolCall", id: "call_1", name: "get_weather", arguments: { city: "Paris" } },
				],
				model,
				"toolUse",
			),
			user("And tomorrow?"),
		],
	};
}

const CALL = [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }];

async function replayedAssistant(model: Model<"openai-completions">): Promise<unknown> {
	const { request } = await capture(server, model, transcript(model), { apiKey: "sk-test" });
	return (request.json as { messages: unknown[] }).messages[1];
}

describe("compat.requiresThinkingAsText", () => {
	it("unset: the thinking is replayed in the detected reasoning field", async () => {
		expect(await replayedAssistant(VLLM)).toEqual({
			role: "assistant",
			content: "Checking.",
			reasoning_content: "The user wants the weather. I should call the tool.",
			tool_calls: CALL,
		});
	});

	it("true: the thinking is the first text part, non-blank blocks joined by a blank line, and no reasoning field", async () => {
		const model = { ...VLLM, compat: { requiresThinkingAsText: true } };
		expect(await replayedAssistant(model)).toEqual({
			role: "assistant",
			content: [
				{ type: "text", text: "The user wants the weather.\n\nI should call the tool." },
				{ type: "text", text: "Checking." },
			],
			tool_calls: CALL,
		});
	});

	it("true: wins over thinkingFormat none, so a server that drops reasoning still sees it", async () => {
		const model = { ...VLLM, compat: { requiresThinkingAsText: true, thinkingFormat: "none" as const } };
		const context: Context = {
			messages: [user("Hi"), assistant([{ type: "thinking", thinking: "Say hello." }], VLLM, "length"), user("Go on")],
		};
		const { request } = await capture(server, model, context, { apiKey: "sk-test" });
		expect((request.json as { messages: unknown[] }).messages).toEqual([
			{ role: "user", content: "Hi" },
			{ role: "assistant", content: [{ type: "text", text: "Say hello." }] },
			{ role: "user", content: "Go on" },
		]);
	});

	it("true: another model's thinking is plain text already and stays a string", async () => {
		const model = { ...VLLM, compat: { requiresThinkingAsText: true } };
		const other = { id: "claude-sonnet-4-20250514", api: "anthropic-messages", provider: "anthropic" };
		const context: Context = {
			messages: [user("Hi"), assistant([{ type: "thinking", thinking: "Greet.", thinkingSignature: "sig" }, { type: "text", text: "Hello!" }], other), user("Again")],
		};
		const { request } = await capture(server, model, context, { apiKey: "sk-test" });
		expect((request.json as { messages: unknown[] }).messages[1]).toEqual({ role: "assistant", content: "Greet.\nHello!" });
	});
});
