import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { emptyUsage } from "../src/event-stream.js";
import { complete } from "../src/stream.js";
import { loadFixture, type ReplayServer, sseResponse, startReplayServer } from "../src/testing/index.js";
import type { Api, AssistantMessage, Context, Model } from "../src/types.js";

/**
 * One transcript that has been through three models: thinking with signatures, parallel tool
 * calls (one without a result), tool results with images, and an aborted reply with an
 * unfinished call. It is sent in turn to all four APIs through the replay server, and each
 * request body is checked against that API's rules.
 */

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==";

function model<TApi extends Api>(api: TApi, id: string, provider: string, baseUrl: string): Model<TApi> {
	return {
		id,
		name: id,
		api,
		provider,
		baseUrl,
		reasoning: true,
		input: ["text", "image"],
		cost: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 200_000,
		maxTokens: 8192,
	};
}

function reply(from: Model<Api>, content: AssistantMessage["content"], stopReason: AssistantMessage["stopReason"]): AssistantMessage {
	return { role: "assistant", content, api: from.api, provider: from.provider, model: from.id, usage: emptyUsage(), stopReason, timestamp: 2 };
}

function transcript(): Context {
	const claude = model("anthropic-messages", "claude-sonnet-4-20250514", "anthropic", "");
	const gpt = model("openai-responses", "gpt-5", "openai", "");
	const gemini = model("google-generative-ai", "gemini-2.5-flash", "google", "");
	return {
		systemPrompt: "You are a travel assistant.",
		tools: [
			{
				name: "get_weather",
				description: "Weather for a city",
				parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } as never,
			},
			{ name: "get_time", description: "Local time", parameters: { type: "object", properties: { zone: { type: "string" } } } as never },
		],
		messages: [
			{ role: "user", content: [{ type: "text", text: "Weather and time in Paris? Here is a photo." }, { type: "image", data: PNG, mimeType: "image/png" }], timestamp: 1 },
			reply(
				claude,
				[
					{ type: "thinking", thinking: "I should check the weather first.", thinkingSignature: "EqQBCkYIBxgCKkD..." },
					{ type: "thinking", thinking: "", thinkingSignature: "EmwKAhgBEgy3va...", redacted: true },
					{ type: "text", text: "Let me check." },
					{ type: "text", text: "" },
					{ type: "toolCall", id: "toolu_01A09q90qw90lq917835lq9", name: "get_weather", arguments: { city: "Paris" } },
				],
				"toolUse",
			),
			{
				role: "toolResult",
				toolCallId: "toolu_01A09q90qw90lq917835lq9",
				toolName: "get_weather",
				content: [{ type: "text", text: "Sunny, 21°C" }, { type: "image", data: PNG, mimeType: "image/png" }],
				isError: false,
				timestamp: 3,
			},
			reply(
				gpt,
				[
					{ type: "thinking", thinking: "Now the time, twice to compare zones.", thinkingSignature: '{"type":"reasoning","id":"rs_1","summary":[]}' },
					{ type: "toolCall", id: "call_abc123|fc_68a1b2c3d4e5f6", name: "get_time", arguments: { zone: "Europe/Paris" } },
					{ type: "toolCall", id: "call_def456|fc_68a1b2c3d4e5f7", name: "get_time", arguments: { zone: "UTC" } },
				],
				"toolUse",
			),
			{ role: "toolResult", toolCallId: "call_abc123|fc_68a1b2c3d4e5f6", toolName: "get_time", content: [{ type: "text", text: "14:05" }], isError: false, timestamp: 4 },
			reply(
				gemini,
				[
					{ type: "text", text: "It is sunny and 14:05. Let me also" },
					{ type: "toolCall", id: "get_weather_1_x7k2", name: "get_weather", arguments: { city: "Lyo" }, thoughtSignature: "CiQB0e2Kb..." },
				],
				"aborted",
			),
			{ role: "user", content: "Never mind Lyon. Summarise, please.", timestamp: 6 },
		],
	};
}

type Json = Record<string, any>;

function nonEmptyTexts(texts: (string | undefined)[]): void {
	for (const text of texts) if (text !== undefined) expect(text.trim(), "an empty text block was sent").not.toBe("");
}

/** Rules of each API for a request body; they throw (via expect) on a violation. */
const rules: Record<string, (body: Json) => void> = {
	"openai-completions": (body) => {
		const messages = body.messages as Json[];
		expect(messages[0]?.role).toMatch(/^(system|developer)$/);
		const pending = new Set<string>();
		for (const message of messages) {
			if (message.role === "assistant") {
				expect(pending.size, "tool calls without results before an assistant message").toBe(0);
				for (const call of message.tool_calls ?? []) {
					expect(call.id).toMatch(/^[a-zA-Z0-9_-]{1,40}$/);
					pending.add(call.id);
				}
				if (typeof message.content === "string") nonEmptyTexts([message.content]);
			} else if (message.role === "tool") {
				expect(pending.delete(message.tool_call_id), `result for unknown call ${message.tool_call_id}`).toBe(true);
			} else if (message.role === "user") {
				expect(pending.size, "a user message came before all tool results").toBe(0);
				const parts = typeof message.content === "string" ? [{ type: "text", text: message.content }] : (message.content as Json[]);
				nonEmptyTexts(parts.filter((part) => part.type === "text").map((part) => part.text));
			}
		}
		expect(pending.size).toBe(0);
	},
	"openai-responses": (body) => {
		const items = body.input as Json[];
		const calls = items.filter((item) => item.type === "function_call").map((item) => item.call_id as string);
		const outputs = items.filter((item) => item.type === "function_call_output").map((item) => item.call_id as string);
		expect(new Set(outputs)).toEqual(new Set(calls));
		for (const id of calls) expect(id).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
		for (const item of items) {
			const index = items.indexOf(item);
			if (item.type === "function_call_output") {
				expect(items.findIndex((other) => other.type === "function_call" && other.call_id === item.call_id)).toBeLessThan(index);
			}
			if (Array.isArray(item.content)) nonEmptyTexts(item.content.map((part: Json) => part.text));
			if (typeof item.content === "string") nonEmptyTexts([item.content]);
		}
	},
	"anthropic-messages": (body) => {
		const messages = body.messages as Json[];
		expect(messages[0]?.role).toBe("user");
		messages.forEach((message, index) => {
			if (index > 0) expect(message.role, `turn ${index} does not alternate`).not.toBe(messages[index - 1]?.role);
			const blocks = typeof message.content === "string" ? [{ type: "text", text: message.content }] : (message.content as Json[]);
			nonEmptyTexts(blocks.filter((block) => block.type === "text").map((block) => block.text));
			const uses = blocks.filter((block) => block.type === "tool_use");
			for (const use of uses) expect(use.id).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
			if (uses.length > 0) {
				const next = messages[index + 1];
				const results = ((next?.content as Json[]) ?? []).filter((block) => block.type === "tool_result").map((block) => block.tool_use_id);
				expect(new Set(results), "every tool_use needs a tool_result in the next turn").toEqual(new Set(uses.map((use) => use.id)));
			}
		});
	},
	"google-generative-ai": (body) => {
		const contents = body.contents as Json[];
		expect(contents[0]?.role).toBe("user");
		contents.forEach((content, index) => {
			if (index > 0) expect(content.role, `turn ${index} does not alternate`).not.toBe(contents[index - 1]?.role);
			const parts = content.parts as Json[];
			expect(parts.length).toBeGreaterThan(0);
			nonEmptyTexts(parts.filter((part) => "text" in part && !part.thoughtSignature).map((part) => part.text));
			const calls = parts.filter((part) => part.functionCall).map((part) => part.functionCall.name as string);
			if (calls.length > 0) {
				const responses = (contents[index + 1]?.parts as Json[]).filter((part) => part.functionResponse).map((part) => part.functionResponse.name);
				expect(responses.sort(), "every functionCall needs a functionResponse in the next turn").toEqual(calls.sort());
			}
		});
	},
};

const targets: { api: Api; id: string; provider: string; path: string; fixture: string }[] = [
	{ api: "openai-completions", id: "gpt-4o", provider: "openai", path: "/v1", fixture: "text-basic" },
	{ api: "openai-responses", id: "gpt-4.1", provider: "openai", path: "/v1", fixture: "text-basic" },
	{ api: "anthropic-messages", id: "claude-3-5-haiku-20241022", provider: "anthropic", path: "", fixture: "text-basic" },
	{ api: "google-generative-ai", id: "gemini-2.0-flash", provider: "google", path: "/v1beta", fixture: "text-basic" },
];

let server: ReplayServer;
beforeAll(async () => {
	server = await startReplayServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

describe("one transcript, sent in turn to all four APIs", () => {
	for (const target of targets) {
		it(`${target.api}: the request follows the API's rules and the reply arrives`, async () => {
			server.enqueue(sseResponse(loadFixture(target.api, target.fixture)));
			const context = transcript();
			const before = structuredClone(context);
			const message = await complete(model(target.api, target.id, target.provider, `${server.url}${target.path}`), context, {
				apiKey: "test-key-0123456789",
			});
			expect(message.stopReason, message.errorMessage).toBe("stop");
			expect(context).toEqual(before);
			const body = server.requests[0]?.json as Json;
			rules[target.api]?.(body);
			// The aborted reply keeps its text for context.
			expect(JSON.stringify(body)).toContain("It is sunny and 14:05. Let me also");
			// Other models' thinking arrives as text, not as thinking.
			expect(JSON.stringify(body)).toContain("I should check the weather first.");
		});
	}
});
